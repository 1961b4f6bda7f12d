import { encodeFunctionData, erc20Abi } from 'viem'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCheckoutPayment, embeddedData, gatewayCall, type CheckoutPayment } from '../../test/checkout-fixtures.ts'
import { BUYER, HAND_TIMING, handFollower, MERCHANT, receiveOnLocalChain, useLocalChain } from '../../test/evm-fixtures.ts'
import { createAccount, testClock, useTestApp, type Account, type TestAppOptions } from '../../test/fixtures.ts'
import { parseEvmConfig } from './config.ts'

// The demo's local chain: a sandbox configuration whose network has a dev wallet the node signs for.
const chain = useLocalChain(1)
const clock = testClock()
const options: TestAppOptions = { clock, config: { sandbox: true } }
beforeAll(() => {
  const [network] = chain.config.networks
  const sandboxConfig = parseEvmConfig(
    {
      sandbox: true,
      networks: [{ id: network?.id, rpcUrl: network?.rpcUrl, confirmations: 1, devWallet: BUYER.address }],
      tokens: chain.config.tokens.map((token) => ({
        id: token.id,
        symbol: token.symbol,
        name: token.name,
        decimals: token.decimals,
        peg: token.peg,
      })),
      rates: { fixed: chain.config.rates.fixed },
    },
    'test',
  )
  options.evm = { config: sandboxConfig, timing: HAND_TIMING }
})
const ctx = useTestApp(options)

let sandboxAccount: Account
beforeEach(async () => {
  sandboxAccount = await createAccount(ctx.tdb.db, { sandbox: true })
  await receiveOnLocalChain(ctx.tdb.db, sandboxAccount)
})

const call = (payment: CheckoutPayment, method: string, params?: unknown[]) =>
  gatewayCall(ctx.app, payment, '/dev-wallet', { method: 'POST', payload: { method, ...(params ? { params } : {}) } })

describe('the Local dev wallet', () => {
  it('is offered on a sandbox partner’s page, and pays with real local tokens', async () => {
    const payment = await createCheckoutPayment(ctx.app, sandboxAccount, { amount: { unit: 'iso4217/USD', value: '500' } })
    const { session } = embeddedData(payment.html)
    expect(session.sandbox).toBe(true)
    expect(session.wallets).toEqual([
      { id: 'browser', name: 'Browser wallet' },
      { id: 'phone', name: 'Phone wallet' },
      { id: 'browser', name: 'Local dev wallet', devAccount: `eip155:31337:${BUYER.address}` },
    ])
    expect((await call(payment, 'eth_requestAccounts')).json()).toEqual({ result: [BUYER.address] })
    expect((await call(payment, 'eth_chainId')).json()).toEqual({ result: '0x7a69' })
    expect((await call(payment, 'wallet_switchEthereumChain', [{ chainId: '0x7a69' }])).json()).toEqual({ result: null })

    const { options: [option] = [] } = (await gatewayCall(ctx.app, payment, '/options')).json()
    expect(option).toMatchObject({ id: 'usdc-31337', tokenAmount: { value: '5000000' }, payTo: `eip155:31337:${MERCHANT}` })
    const before = await chain.clients.public.readContract({
      address: chain.usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [MERCHANT],
    })
    // What the page does: it sends the transaction the option describes, reference included.
    const sent = await call(payment, 'eth_sendTransaction', [{ from: BUYER.address, ...option.transfer }])
    const { result: hash } = sent.json<{ result: `0x${string}` }>()
    await chain.clients.public.waitForTransactionReceipt({ hash })

    const confirmed = await gatewayCall(ctx.app, payment, '/confirm', {
      method: 'POST',
      payload: {
        walletId: 'browser',
        optionId: 'usdc-31337',
        account: `eip155:31337:${BUYER.address}`,
        transactionHash: hash,
        walletName: 'Local dev wallet',
      },
    })
    expect(confirmed.json()).toMatchObject({ status: 'processing' })
    await handFollower(ctx.tdb.db, clock, options.evm?.config ?? chain.config).runOnce()
    expect((await gatewayCall(ctx.app, payment, '/status')).json()).toMatchObject({ status: 'succeeded' })
    const after = await chain.clients.public.readContract({
      address: chain.usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [MERCHANT],
    })
    expect(after - before).toBe(5_000_000n)
  })

  it('sends only this pending payment’s own transfer, and nothing else', async () => {
    const payment = await createCheckoutPayment(ctx.app, sandboxAccount)
    const { options: [option] = [] } = (await gatewayCall(ctx.app, payment, '/options')).json()
    const other = await createCheckoutPayment(ctx.app, sandboxAccount, { amount: { unit: 'iso4217/USD', value: '501' } })
    const { options: [othersOption] = [] } = (await gatewayCall(ctx.app, other, '/options')).json()
    const bare = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [MERCHANT, 1n] })
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [MERCHANT, 1n] })
    for (const [method, params, field] of [
      ['eth_sendTransaction', [{ to: chain.usdc, data: bare }], 'params[0]'],
      ['eth_sendTransaction', [{ to: chain.usdc, data: approve }], 'params[0]'],
      ['eth_sendTransaction', [{ to: chain.other, data: option.transfer.data }], 'params[0]'],
      // Another payment's transfer, with this payment's checkout token.
      ['eth_sendTransaction', [othersOption.transfer], 'params[0]'],
      ['eth_sign', [BUYER.address, '0x00'], 'method'],
      ['wallet_switchEthereumChain', [{ chainId: '0x2105' }], 'params[0].chainId'],
    ] as const) {
      const refused = await call(payment, method, [...params])
      expect(refused.statusCode, method).toBe(400)
      expect(refused.json().issues[0].field, method).toBe(field)
    }
    // Once the payment has ended, not even its own transfer.
    await gatewayCall(ctx.app, payment, '/expire', { method: 'POST' })
    expect((await call(payment, 'eth_sendTransaction', [option.transfer])).statusCode).toBe(400)
  })

  it('is not there for a live partner, whose payments no test network takes', async () => {
    const live = await createAccount(ctx.tdb.db)
    const payment = await createCheckoutPayment(ctx.app, live)
    expect(embeddedData(payment.html).session.wallets).toEqual([])
    expect((await call(payment, 'eth_requestAccounts')).statusCode).toBe(404)
  })
})
