import { erc20Abi, getAddress } from 'viem'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCheckoutPayment, gatewayCall, type CheckoutPayment } from '../../test/checkout-fixtures.ts'
import {
  BUYER,
  HAND_TIMING,
  handFollower,
  handWatcher,
  MERCHANT,
  plainTransfer,
  receiveOnLocalChain,
  signedTransfer,
  transfer,
  useLocalChain,
} from '../../test/evm-fixtures.ts'
import { createAccount, testClock, useTestApp, type Account, type TestAppOptions } from '../../test/fixtures.ts'
import { paymentTimeline } from '../dashboard/timeline.ts'
import { paymentStore } from '../payments/store.ts'

// A real local chain, one confirmation: the watcher finds what anvil mined, with no checkout page posting.
const chain = useLocalChain(1)
const clock = testClock()
// The merchant's webhook host resolves to a public address: its endpoint is accepted (and never called here).
const options: TestAppOptions = { clock, outbound: { lookup: async () => [{ address: '93.184.216.34', family: 4 }] } }
beforeAll(() => {
  options.evm = { config: chain.config, timing: HAND_TIMING }
})
const ctx = useTestApp(options)

let account: Account
let watcher: ReturnType<typeof handWatcher>
let follower: ReturnType<typeof handFollower>
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
  await receiveOnLocalChain(ctx.tdb.db, account)
  watcher = handWatcher(ctx.tdb.db, clock, chain.config)
  follower = handFollower(ctx.tdb.db, clock, chain.config)
  // Whatever earlier tests left on chain is behind the cursor (the empty block is all it reads again): each
  // test reads only its own blocks.
  await chain.clients.test.mine({ blocks: 1 })
  await watcher.runOnce()
})

type Quoted = CheckoutPayment & { amount: bigint; paymentRequest: string | undefined }

/** A payment whose page the buyer opened: its USDC option is quoted its own exact amount. */
async function openPayment(value = '1999'): Promise<Quoted> {
  const created = await createCheckoutPayment(ctx.app, account, { amount: { unit: 'iso4217/EUR', value } })
  const answer = await gatewayCall(ctx.app, created, '/options')
  const [option] = (answer.json() as { options: { tokenAmount: { value: string }; paymentRequest?: string }[] }).options
  return { ...created, amount: BigInt(option?.tokenAmount.value ?? '0'), paymentRequest: option?.paymentRequest }
}

const seenBy = async (id: string) =>
  (await paymentTimeline(ctx.tdb.db, id)).flatMap((entry) => (entry.kind === 'transaction' ? [entry.seenBy] : []))
const statusOf = async (id: string) => (await paymentStore(ctx.tdb.db).findById(id))?.status

const submit = (paid: CheckoutPayment, transactionHash: string) =>
  gatewayCall(ctx.app, paid, '/confirm', {
    method: 'POST',
    payload: { walletId: 'browser', optionId: 'usdc-31337', account: `eip155:31337:${BUYER.address}`, transactionHash },
  })

/** The payment's recorded steps from its creation: each is one transition, and one webhook event where endpoints listen. */
async function transitions(paymentId: string): Promise<string[]> {
  const rows = await ctx.tdb.db.query<{ to_status: string }>(
    'SELECT to_status FROM payment_transitions WHERE payment_id = $1 ORDER BY id',
    [paymentId],
  )
  return rows.map((row) => row.to_status)
}

async function unapplied(txHash: string) {
  const [row] = await ctx.tdb.db.query<{ reason: string; payment_id: string | null; amount: string }>(
    'SELECT reason, payment_id, amount::text AS amount FROM evm_unapplied_transfers WHERE tx_hash = $1',
    [txHash.toLowerCase()],
  )
  return row
}

describe('a transfer the checkout page never posted', () => {
  it('is found by its reference: the buyer’s tab closed after the wallet sent it, and the payment succeeds', async () => {
    const paid = await openPayment()
    await transfer(chain, { paymentId: paid.paymentId, amount: paid.amount })

    await watcher.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('processing')
    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('succeeded')
    expect(await transitions(paid.paymentId)).toEqual(['pending', 'processing', 'succeeded'])
  })

  it('is found by its unique exact amount, from a wallet that appends nothing (a phone wallet scanning the QR code)', async () => {
    const first = await openPayment()
    const second = await openPayment()
    // Same price, same merchant: each is asked its own exact amount, and offered as a payment request.
    expect(second.amount).not.toBe(first.amount)
    expect(second.paymentRequest).toBe(
      `ethereum:${getAddress(chain.usdc)}@31337/transfer?address=${getAddress(MERCHANT)}&uint256=${second.amount}`,
    )
    await plainTransfer(chain, { amount: second.amount })

    await watcher.runOnce()
    await follower.runOnce()
    expect(await statusOf(second.paymentId)).toBe('succeeded')
    expect(await statusOf(first.paymentId)).toBe('pending')
    const [row] = await ctx.tdb.db.query<{ sender: string; matched_by: string }>(
      'SELECT sender, matched_by FROM evm_transfers WHERE payment_id = $1',
      [second.paymentId],
    )
    // The refund address, should it ever come to that, is who the token moved from.
    expect(row).toEqual({ sender: BUYER.address.toLowerCase(), matched_by: 'amount' })
  })
})

describe('a transfer posted by the page and found by the watcher', () => {
  it('moves the payment once when the page posts first', async () => {
    const paid = await openPayment()
    const hash = await transfer(chain, { paymentId: paid.paymentId, amount: paid.amount })
    expect((await submit(paid, hash)).json()).toMatchObject({ status: 'processing' })
    await watcher.runOnce()
    await follower.runOnce()
    expect(await transitions(paid.paymentId)).toEqual(['pending', 'processing', 'succeeded'])
    expect(await seenBy(paid.paymentId)).toEqual(['page'])
  })

  it('moves the payment once when the watcher finds it first, and the page’s late post is answered with the payment', async () => {
    const paid = await openPayment()
    const hash = await transfer(chain, { paymentId: paid.paymentId, amount: paid.amount })
    await watcher.runOnce()
    const posted = await submit(paid, hash)
    expect(posted.json()).toMatchObject({ status: 'processing' })
    expect(posted.statusCode).toBe(200)
    expect(posted.json()).toMatchObject({ status: 'processing' })
    await follower.runOnce()
    expect(await transitions(paid.paymentId)).toEqual(['pending', 'processing', 'succeeded'])
    // The payment's dashboard page tells who saw the transaction first.
    expect(await seenBy(paid.paymentId)).toEqual(['watcher'])
  })
})

describe('a transfer that pays nothing', () => {
  it('one unit short is unapplied as amount_mismatch, and the payment stays pending', async () => {
    const paid = await openPayment()
    const hash = await plainTransfer(chain, { amount: paid.amount - 1n })
    await watcher.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('pending')
    expect(await unapplied(hash)).toEqual({ reason: 'amount_mismatch', payment_id: paid.paymentId, amount: String(paid.amount - 1n) })
  })

  it('one unit short with the reference is unapplied as amount_mismatch against the payment it names', async () => {
    const paid = await openPayment()
    const hash = await transfer(chain, { paymentId: paid.paymentId, amount: paid.amount - 1n })
    await watcher.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('pending')
    expect(await unapplied(hash)).toMatchObject({ reason: 'amount_mismatch', payment_id: paid.paymentId })
  })

  it('after the deadline is unapplied as payment_expired, and announced to the merchant’s webhook endpoint', async () => {
    const endpoint = await ctx.app.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      headers: account.headers,
      payload: { url: 'https://hooks.corner-shop.com/webhooks', events: ['transfer.unapplied'] },
    })
    expect(endpoint.statusCode).toBe(201)
    const paid = await openPayment()
    clock.advance(16 * 60_000)
    const hash = await plainTransfer(chain, { amount: paid.amount })
    await watcher.runOnce()
    expect(await statusOf(paid.paymentId)).not.toBe('processing')
    expect(await unapplied(hash)).toMatchObject({ reason: 'payment_expired', payment_id: paid.paymentId })
    const events = await ctx.tdb.db.query<{ type: string; payment_id: string; tx_hash: string }>(
      `SELECT e.type, e.payment_id, e.transfer->>'tx_hash' AS tx_hash
         FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id`,
    )
    expect(events).toEqual([{ type: 'transfer.unapplied', payment_id: paid.paymentId, tx_hash: hash.toLowerCase() }])
  })

  it('a second time is unapplied as payment_already_paid', async () => {
    const paid = await openPayment()
    await plainTransfer(chain, { amount: paid.amount })
    const again = await plainTransfer(chain, { amount: paid.amount })
    await watcher.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('processing')
    expect(await unapplied(again)).toMatchObject({ reason: 'payment_already_paid', payment_id: paid.paymentId })
  })

  it('to the merchant with no payment open is unapplied as no_matching_payment', async () => {
    const paid = await openPayment()
    await plainTransfer(chain, { amount: paid.amount })
    await watcher.runOnce()
    const stray = await plainTransfer(chain, { amount: 5_000_000n })
    await watcher.runOnce()
    expect(await unapplied(stray)).toMatchObject({ reason: 'no_matching_payment', payment_id: null })
  })

  it('of a token Till is not configured for is ignored', async () => {
    const paid = await openPayment()
    const hash = await chain.clients.wallet.writeContract({
      address: chain.other,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [MERCHANT, paid.amount],
      account: BUYER,
    })
    await chain.clients.public.waitForTransactionReceipt({ hash })
    await watcher.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('pending')
    expect(await unapplied(hash)).toBeUndefined()
  })
})

describe('a reorganisation', () => {
  it('sends a found payment back to waiting, and it succeeds when the transfer is mined again', async () => {
    const paid = await openPayment()
    const raw = await signedTransfer(chain, { paymentId: paid.paymentId, amount: paid.amount })
    const snapshot = await chain.clients.test.snapshot()
    const hash = await chain.clients.public.sendRawTransaction({ serializedTransaction: raw })
    await chain.clients.public.waitForTransactionReceipt({ hash })
    await watcher.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('processing')

    await chain.clients.test.revert({ id: snapshot })
    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('processing')

    await chain.clients.public.sendRawTransaction({ serializedTransaction: raw })
    await chain.clients.public.waitForTransactionReceipt({ hash })
    await watcher.runOnce()
    await follower.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('succeeded')
    expect(await transitions(paid.paymentId)).toEqual(['pending', 'processing', 'succeeded'])
  })
})
