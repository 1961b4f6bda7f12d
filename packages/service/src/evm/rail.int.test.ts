import { ErrorBody, Payment, PaymentOptionsResponse, UnappliedTransferList } from '@till/contract'
import { getAddress } from 'viem'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCheckoutPayment, embeddedData, gatewayCall, type CheckoutPayment } from '../../test/checkout-fixtures.ts'
import {
  BUYER,
  handFollower,
  MERCHANT,
  receiveOnLocalChain,
  signedTransfer,
  STRANGER,
  transfer,
  useLocalChain,
  HAND_TIMING,
} from '../../test/evm-fixtures.ts'
import { createAccount, testClock, useTestApp, type Account, type TestAppOptions } from '../../test/fixtures.ts'
import { adminCommandRunner } from '../cli/admin-command.test-helper.ts'
import { listingPayment } from '../payments/views.ts'
import { accountStore } from '../accounts/store.ts'
import { paymentStore } from '../payments/store.ts'
import { paymentReference, transferCall } from './reference.ts'
import { evmTransfers } from './transfers.ts'
import { unappliedTransfers } from './unapplied.ts'

// A real local chain, three confirmations: every outcome below is a transaction anvil mined, or forgot.
const chain = useLocalChain(3)
const clock = testClock()
const options: TestAppOptions = { clock }
beforeAll(() => {
  options.evm = { config: chain.config, timing: HAND_TIMING }
})
const ctx = useTestApp(options)
const till = adminCommandRunner(ctx)

let account: Account
let follower: ReturnType<typeof handFollower>
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
  await receiveOnLocalChain(ctx.tdb.db, account)
  follower = handFollower(ctx.tdb.db, clock, chain.config)
})

// 19.99 EUR at 1.0842 USDC per EUR is 21.673158 USDC: 21673158 of its smallest unit, exactly.
const PRICE = { unit: 'iso4217/EUR', value: '1999' }
const QUOTED = 21_673_158n

async function payment(): Promise<CheckoutPayment> {
  const created = await createCheckoutPayment(ctx.app, account, { amount: PRICE })
  const answer = await gatewayCall(ctx.app, created, '/options')
  expect(answer.statusCode).toBe(200)
  return created
}

/** The exact amount a payment's USDC option asks for, as its page shows it. */
async function quotedAmount(paid: CheckoutPayment): Promise<bigint> {
  const answer = await gatewayCall(ctx.app, paid, '/options')
  return BigInt((answer.json() as { options: { tokenAmount: { value: string } }[] }).options[0]?.tokenAmount.value ?? '0')
}

const submit = (paid: CheckoutPayment, transactionHash: string, overrides: Record<string, unknown> = {}) =>
  gatewayCall(ctx.app, paid, '/confirm', {
    method: 'POST',
    payload: {
      walletId: 'browser',
      optionId: 'usdc-31337',
      account: `eip155:31337:${BUYER.address}`,
      transactionHash,
      walletName: 'Test Browser Wallet',
      ...overrides,
    },
  })

async function statusOf(paymentId: string) {
  return (await paymentStore(ctx.tdb.db).findById(paymentId))?.status
}

async function listing(paymentId: string) {
  const record = await paymentStore(ctx.tdb.db).findById(paymentId)
  const merchant = await accountStore(ctx.tdb.db).findMerchant(account.merchantId)
  if (!record || !merchant) throw new Error(`no payment ${paymentId}`)
  return Payment.parse(listingPayment(record, { id: merchant.id, name: merchant.name, iconUrl: null }))
}

describe('the options of a payment on a local chain', () => {
  it('are offered on a page that says it is a local chain', async () => {
    const created = await createCheckoutPayment(ctx.app, account, { amount: PRICE })
    expect(embeddedData(created.html).session.localChain).toBe(true)
    expect(created.html).toContain('<span class="badge">Local test chain</span>')
  })

  it('quote the exact token amount, the rate used and where the transfer goes', async () => {
    const created = await createCheckoutPayment(ctx.app, account, { amount: PRICE })
    const { options } = PaymentOptionsResponse.parse((await gatewayCall(ctx.app, created, '/options')).json())
    expect(options).toEqual([
      {
        id: 'usdc-31337',
        network: { id: 'eip155:31337', name: 'Local chain' },
        tokenAmount: {
          unit: `caip19/eip155:31337/erc20:${chain.usdc}`,
          value: QUOTED.toString(),
          display: { assetSymbol: 'USDC', assetName: 'USD Coin', decimals: 6, networkName: 'Local chain' },
        },
        payTo: `eip155:31337:${MERCHANT}`,
        rate: '1 EUR = 1.0842 USDC',
        // The wallet sends exactly this: transfer(payTo, amount), then the payment's reference.
        transfer: { to: getAddress(chain.usdc), data: transferCall(MERCHANT, QUOTED, paymentReference(created.paymentId)) },
        // Any wallet may pay the same, unique, exact amount without the reference: a phone wallet scanning it.
        paymentRequest: `ethereum:${getAddress(chain.usdc)}@31337/transfer?address=${getAddress(MERCHANT)}&uint256=${QUOTED}`,
      },
    ])
  })

  it('are none for a merchant who receives on no configured network', async () => {
    await accountStore(ctx.tdb.db).updateMerchant({
      partnerId: account.partnerId,
      merchantId: account.merchantId,
      changes: { settlementAddresses: [] },
      now: new Date(),
    })
    const created = await createCheckoutPayment(ctx.app, account, { amount: PRICE })
    expect((await gatewayCall(ctx.app, created, '/options')).json()).toEqual({ options: [] })
  })
})

describe('a browser wallet payment', () => {
  it('is processing once submitted, and succeeds after the network’s confirmations', async () => {
    const paid = await payment()
    const hash = await transfer(chain, { paymentId: paid.paymentId, amount: QUOTED })
    const submitted = await submit(paid, hash)
    expect(submitted.statusCode).toBe(200)
    expect(submitted.json()).toMatchObject({ status: 'processing', paid: { transactionHash: hash } })

    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('processing')
    await chain.clients.test.mine({ blocks: 1 })
    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('processing')
    await chain.clients.test.mine({ blocks: 1 })
    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('succeeded')

    const row = await listing(paid.paymentId)
    const receipt = await chain.clients.public.getTransaction({ hash })
    expect(row).toMatchObject({
      status: 'succeeded',
      buyer: { accountCaip10: `eip155:31337:${BUYER.address}`, accountProviderName: 'Test Browser Wallet' },
      transaction: { networkId: '31337', hash, nonce: receipt.nonce },
      tokenAmount: {
        unit: `caip19/eip155:31337/erc20:${chain.usdc.toLowerCase()}`,
        value: QUOTED.toString(),
        display: { assetSymbol: 'USDC', assetName: 'USD Coin', decimals: 6 },
      },
      settlement: { settled: true, amount: PRICE, txHash: hash },
    })
    expect(row.fees).toBeUndefined()
  })

  it('fails when the transfer reverted, once the revert is as deep as a success would need', async () => {
    const paid = await payment()
    // The stranger holds no USDC: the exact transfer is mined and reverts.
    const hash = await transfer(chain, { paymentId: paid.paymentId, amount: QUOTED, from: STRANGER, gas: 100_000n })
    const submitted = await submit(paid, hash, { account: `eip155:31337:${STRANGER.address}` })
    expect(submitted.json()).toMatchObject({ status: 'processing' })
    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('processing')
    await chain.clients.test.mine({ blocks: 2 })
    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('failed')
  })

  it.each([
    { wrong: 'amount', amount: QUOTED - 1n, words: 'the payment needs exactly 21673158' },
    { wrong: 'recipient', amount: QUOTED, to: STRANGER.address, words: 'not to the merchant' },
    { wrong: 'token', amount: QUOTED, otherToken: true, words: 'does not transfer the token of the chosen option' },
  ])('refuses a transfer of the wrong $wrong with a clear error, and the payment stays pending', async (input) => {
    const paid = await payment()
    const hash = await transfer(chain, {
      paymentId: paid.paymentId,
      amount: input.amount,
      ...(input.to ? { to: input.to } : {}),
      token: input.otherToken ? chain.other : chain.usdc,
    })
    const refused = await submit(paid, hash)
    expect(refused.statusCode).toBe(400)
    const body = ErrorBody.parse(refused.json())
    expect(body.issues?.[0]?.field).toBe('transactionHash')
    expect(body.issues?.[0]?.message).toContain(input.words)
    expect(await statusOf(paid.paymentId)).toBe('pending')
  })

  it('refuses an account on another chain than the option’s', async () => {
    const paid = await payment()
    const hash = await transfer(chain, { paymentId: paid.paymentId, amount: QUOTED })
    const refused = await submit(paid, hash, { account: `eip155:8453:${BUYER.address}` })
    expect(refused.statusCode).toBe(400)
    expect(ErrorBody.parse(refused.json()).issues?.[0]?.field).toBe('account')
    expect(await statusOf(paid.paymentId)).toBe('pending')
  })

  it('asks for the hash again while the network does not know it', async () => {
    const paid = await payment()
    const refused = await submit(paid, `0x${'ab'.repeat(32)}`)
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toMatchObject({ code: 'transaction_not_found' })
    expect(await statusOf(paid.paymentId)).toBe('pending')
  })

  it('is processing when the wallet appended an ERC-8021 attribution suffix after the reference', async () => {
    const paid = await payment()
    // Schema 0, codes "baseapp,morpho", as the Base app and others credit themselves.
    const attribution = '0x626173656170702c6d6f7270686f0e0080218021802180218021802180218021'
    const hash = await transfer(chain, { paymentId: paid.paymentId, amount: QUOTED, suffix: attribution })
    expect((await submit(paid, hash)).json()).toMatchObject({ status: 'processing', paid: { transactionHash: hash } })
  })

  it('cannot be front-run: the buyer’s hash claimed first for another payment of the same amount is refused', async () => {
    const buyers = await payment()
    const attackers = await payment()
    // Two payments to one merchant are quoted distinct exact amounts (amount-slots.ts); the reference is what
    // still stops a transfer of the other's exact amount, as it does where no distinct amount was free.
    const attackersAmount = await quotedAmount(attackers)
    expect(attackersAmount).toBe(QUOTED + 1n)
    const hash = await transfer(chain, { paymentId: buyers.paymentId, amount: attackersAmount })
    const claimed = await submit(attackers, hash)
    expect(claimed.statusCode).toBe(400)
    expect(ErrorBody.parse(claimed.json()).issues?.[0]?.message).toContain("does not carry this payment's reference")
    expect(await statusOf(attackers.paymentId)).toBe('pending')
    const buyersHash = await transfer(chain, { paymentId: buyers.paymentId, amount: QUOTED })
    expect((await submit(buyers, buyersHash)).json()).toMatchObject({ status: 'processing' })
  })

  const transitionsOf = async (paymentId: string) =>
    (await ctx.tdb.db.query('SELECT 1 FROM payment_transitions WHERE payment_id = $1', [paymentId])).length

  it('takes a transaction hash once, however it is spelt: posted again, it answers the payment it paid', async () => {
    const paid = await payment()
    const hash = await transfer(chain, { paymentId: paid.paymentId, amount: QUOTED })
    expect((await submit(paid, hash)).statusCode).toBe(200)
    const again = await submit(paid, hash.toUpperCase().replace('0X', '0x'))
    expect(again.statusCode).toBe(200)
    expect(again.json()).toMatchObject({ status: 'processing' })
    // Created, then processing: the second post moved nothing.
    expect(await transitionsOf(paid.paymentId)).toBe(2)
  })

  it('binds a hash in the transaction that moves the payment: of concurrent submissions, one moves it', async () => {
    const paid = await payment()
    const hash = await transfer(chain, { paymentId: paid.paymentId, amount: QUOTED })
    const answers = await Promise.all(Array.from({ length: 4 }, () => submit(paid, hash)))
    // Each post of the buyer's own hash reads the payment it paid (the page may post twice, the watcher may
    // have found it first); the payment moved once.
    expect(answers.map((answer) => answer.json().status)).toEqual(['processing', 'processing', 'processing', 'processing'])
    expect(await transitionsOf(paid.paymentId)).toBe(2)
    expect(await evmTransfers(ctx.tdb.db).watching()).toBe(1)
  })

  it('does not record as unapplied a transaction that paid a payment, submitted again after it ended', async () => {
    const paid = await payment()
    const hash = await transfer(chain, { paymentId: paid.paymentId, amount: QUOTED })
    expect((await submit(paid, hash)).statusCode).toBe(200)
    clock.advance(901_000)
    expect((await submit(paid, hash)).json()).toMatchObject({ status: 'processing' })
    expect((await unappliedTransfers(ctx.tdb.db).page(account.merchantId, { limit: 10 })).transfers).toEqual([])
  })

  it('leaves the payment expired when the transfer comes after its deadline, and records it for a refund', async () => {
    const paid = await payment()
    clock.advance(901_000)
    const hash = await transfer(chain, { paymentId: paid.paymentId, amount: QUOTED })
    const late = await submit(paid, hash)
    expect(late.statusCode).toBe(409)
    expect(late.json()).toMatchObject({
      code: 'invalid_transition',
      details: { status: 'expired', late: true, reason: 'payment_expired' },
    })
    expect(await statusOf(paid.paymentId)).toBe('expired')
    expect((await unappliedTransfers(ctx.tdb.db).page(account.merchantId, { limit: 10 })).transfers).toMatchObject([
      {
        paymentId: paid.paymentId,
        txHash: hash.toLowerCase(),
        logIndex: null,
        reason: 'payment_expired',
        sender: BUYER.address.toLowerCase(),
        recipient: MERCHANT.toLowerCase(),
        amount: QUOTED,
      },
    ])
    // Submitted again, it is the same transfer: recorded once.
    expect((await submit(paid, hash)).json()).toMatchObject({ code: 'transaction_already_used' })
    // The partner reads what to refund, and to whom, over the API; another partner cannot.
    const api = await ctx.app.inject({
      url: `/v1/merchants/${account.merchantId}/unapplied-transfers`,
      headers: { 'api-key': account.apiKey },
    })
    expect(UnappliedTransferList.parse(api.json()).data).toEqual([
      {
        id: `eip155:31337/${hash.toLowerCase()}`,
        transaction: { networkId: 'eip155:31337', hash: hash.toLowerCase(), logIndex: null },
        from: `eip155:31337:${BUYER.address}`,
        to: `eip155:31337:${getAddress(MERCHANT)}`,
        tokenAmount: {
          unit: `caip19/eip155:31337/erc20:${chain.usdc.toLowerCase()}`,
          value: QUOTED.toString(),
          display: { assetSymbol: 'USDC', assetName: 'USD Coin', decimals: 6, networkName: 'Local chain' },
        },
        reason: 'payment_expired',
        paymentId: paid.paymentId,
        recordedAt: clock.now().toISOString(),
      },
    ])
    const stranger = await createAccount(ctx.tdb.db)
    const refused = await ctx.app.inject({
      url: `/v1/merchants/${account.merchantId}/unapplied-transfers`,
      headers: { 'api-key': stranger.apiKey },
    })
    expect(refused.statusCode).toBe(404)
    expect(refused.json()).toMatchObject({ code: 'merchant_not_found' })
    // The operator hands the merchant what to refund, and to whom.
    expect(await till('transfers unapplied', '--merchant', account.merchantId)).toMatch(
      new RegExp(
        `payment_expired  ${paid.paymentId}  ${QUOTED} of eip155:31337/erc20:${chain.usdc.toLowerCase()} from ${BUYER.address.toLowerCase()}`,
      ),
    )
  })
})

describe('a reorganisation before enough confirmations', () => {
  it('sends the payment back to waiting, and it succeeds when the transaction is mined again', async () => {
    const paid = await payment()
    const raw = await signedTransfer(chain, { paymentId: paid.paymentId, amount: QUOTED })
    const snapshot = await chain.clients.test.snapshot()
    const hash = await chain.clients.public.sendRawTransaction({ serializedTransaction: raw })
    expect((await submit(paid, hash)).json()).toMatchObject({ status: 'processing' })
    await follower.runOnce()

    await chain.clients.test.revert({ id: snapshot })
    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('processing')
    expect((await ctx.tdb.db.query<{ lost: boolean }>('SELECT unmined_since IS NOT NULL AS lost FROM evm_watches'))[0]?.lost).toBe(true)

    await chain.clients.public.sendRawTransaction({ serializedTransaction: raw })
    await chain.clients.test.mine({ blocks: 2 })
    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('succeeded')
  })

  it('fails the payment when the transaction stays gone past the drop window', async () => {
    const paid = await payment()
    const snapshot = await chain.clients.test.snapshot()
    const hash = await transfer(chain, { paymentId: paid.paymentId, amount: QUOTED })
    expect((await submit(paid, hash)).json()).toMatchObject({ status: 'processing' })
    await chain.clients.test.revert({ id: snapshot })
    await follower.runOnce()
    clock.advance(HAND_TIMING.dropAfterMs - 1)
    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('processing')
    clock.advance(1)
    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('failed')
  })
})

describe('a transaction the buyer’s wallet replaces (same nonce)', () => {
  const slow = { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, gas: 100_000n }
  const fast = { maxFeePerGas: 4_000_000_000n, maxPriorityFeePerGas: 2_000_000_000n, gas: 100_000n }

  /** The buyer signs the transfer and the page submits it while no block comes; then the wallet replaces it. */
  async function submittedThenReplaced(paid: CheckoutPayment, replacement: 'speed up' | 'cancel') {
    const { wallet, test } = chain.clients
    await test.setAutomine(false)
    try {
      const nonce = await chain.clients.public.getTransactionCount({ address: BUYER.address, blockTag: 'pending' })
      const data = transferCall(MERCHANT, QUOTED, paymentReference(paid.paymentId))
      const first = await wallet.sendTransaction({ account: BUYER, to: chain.usdc, data, nonce, ...slow })
      expect((await submit(paid, first)).json()).toMatchObject({ status: 'processing' })
      const second =
        replacement === 'speed up'
          ? await wallet.sendTransaction({ account: BUYER, to: chain.usdc, data, nonce, ...fast })
          : await wallet.sendTransaction({ account: BUYER, to: BUYER.address, value: 0n, nonce, ...fast })
      await test.mine({ blocks: 1 })
      return second
    } finally {
      await test.setAutomine(true)
    }
  }

  it('follows a sped-up replacement that pays the same way, and the payment succeeds with its hash', async () => {
    const paid = await payment()
    const second = await submittedThenReplaced(paid, 'speed up')
    await chain.clients.test.mine({ blocks: 2 })
    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('processing')
    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('succeeded')
    expect(await listing(paid.paymentId)).toMatchObject({
      transaction: { hash: second.toLowerCase() },
      settlement: { txHash: second.toLowerCase() },
    })
  })

  it('fails the payment when the replacement cancels the transfer', async () => {
    const paid = await payment()
    await submittedThenReplaced(paid, 'cancel')
    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('failed')
  })
})
