import { type Anvil, chainClients, deployToken, startAnvil } from '@till/devchain'
import { ErrorBody } from '@till/contract'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { createCheckoutPayment, gatewayCall } from '../../test/checkout-fixtures.ts'
import { BUYER, HAND_TIMING, MERCHANT } from '../../test/evm-fixtures.ts'
import { createAccount, testClock, useTestApp, type Account, type TestAppOptions } from '../../test/fixtures.ts'
import { accountStore } from '../accounts/store.ts'
import { parseEvmConfig } from './config.ts'
import { paymentReference, transferCall } from './reference.ts'

// Two local chains, USDC on each: a buyer who pays on the other one is told so, not left waiting.
let home: Anvil
let away: Anvil
const options: TestAppOptions = { clock: testClock() }
let awayUsdc: `0x${string}`
beforeAll(async () => {
  ;[home, away] = await Promise.all([startAnvil(), startAnvil({ chainId: 31338 })])
  const funded = [{ to: BUYER.address, amount: 1_000_000_000n }]
  const [homeUsdc, otherUsdc] = await Promise.all([
    deployToken(home.url, 'USD Coin', 'USDC', funded),
    deployToken(away.url, 'USD Coin', 'USDC', funded),
  ])
  awayUsdc = otherUsdc
  const token = (network: string, address: string) => ({
    id: `${network}/erc20:${address}`,
    symbol: 'USDC',
    name: 'USD Coin',
    decimals: 6,
    peg: 'USD',
  })
  const config = parseEvmConfig(
    {
      networks: [
        { id: 'eip155:31337', rpcUrl: home.url, confirmations: 1 },
        { id: 'eip155:31338', name: 'Other local chain', rpcUrl: away.url, confirmations: 1 },
      ],
      tokens: [token('eip155:31337', homeUsdc), token('eip155:31338', otherUsdc)],
    },
    'test',
  )
  options.evm = { config, timing: HAND_TIMING }
}, 60_000)
afterAll(async () => {
  await Promise.all([home?.stop(), away?.stop()])
})
const ctx = useTestApp(options)

let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
  await accountStore(ctx.tdb.db).updateMerchant({
    partnerId: account.partnerId,
    merchantId: account.merchantId,
    changes: { settlementAddresses: [`eip155:31337:${MERCHANT}`, `eip155:31338:${MERCHANT}`] },
    now: new Date(),
  })
})

it('refuses a transfer made on another configured chain than the option’s, naming both', async () => {
  const payment = await createCheckoutPayment(ctx.app, account, { amount: { unit: 'iso4217/USD', value: '500' } })
  await gatewayCall(ctx.app, payment, '/options')
  const clients = chainClients(away.url)
  const hash = await clients.wallet.sendTransaction({
    account: BUYER,
    chain: null,
    to: awayUsdc,
    data: transferCall(MERCHANT, 5_000_000n, paymentReference(payment.paymentId)),
  })
  await clients.public.waitForTransactionReceipt({ hash })
  const refused = await gatewayCall(ctx.app, payment, '/confirm', {
    method: 'POST',
    payload: { walletId: 'browser', optionId: 'usdc-31337', account: `eip155:31337:${BUYER.address}`, transactionHash: hash },
  })
  expect(refused.statusCode).toBe(400)
  expect(ErrorBody.parse(refused.json()).issues?.[0]).toEqual({
    field: 'transactionHash',
    message: 'the transaction is on Other local chain (eip155:31338), not on Local chain, the network of the option',
  })
})
