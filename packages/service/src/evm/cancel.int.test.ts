// Cancel on a real local chain (issue 24, point 1): a transfer after the cancel pays nothing and is kept for a
// refund, and a cancel racing the buyer's transaction, posted by the page or found by the watcher, is decided
// by the database: exactly one of them wins.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCheckoutPayment, gatewayCall, type CheckoutPayment } from '../../test/checkout-fixtures.ts'
import { BUYER, HAND_TIMING, handWatcher, receiveOnLocalChain, transfer, useLocalChain } from '../../test/evm-fixtures.ts'
import { createAccount, testClock, useTestApp, type Account, type TestAppOptions } from '../../test/fixtures.ts'
import { paymentStore } from '../payments/store.ts'

const chain = useLocalChain(1)
const clock = testClock()
const options: TestAppOptions = { clock }
beforeAll(() => {
  options.evm = { config: chain.config, timing: HAND_TIMING }
})
const ctx = useTestApp(options)

let account: Account
let watcher: ReturnType<typeof handWatcher>
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
  await receiveOnLocalChain(ctx.tdb.db, account)
  watcher = handWatcher(ctx.tdb.db, clock, chain.config)
  await chain.clients.test.mine({ blocks: 1 })
  await watcher.runOnce()
})

type Quoted = CheckoutPayment & { amount: bigint }

async function openPayment(): Promise<Quoted> {
  const created = await createCheckoutPayment(ctx.app, account, { amount: { unit: 'iso4217/EUR', value: '1999' } })
  const [option] = (await gatewayCall(ctx.app, created, '/options')).json<{ options: { tokenAmount: { value: string } }[] }>().options
  return { ...created, amount: BigInt(option?.tokenAmount.value ?? '0') }
}

const cancel = (paymentId: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/v1/merchant/payment/${paymentId}/cancel`,
    headers: { ...account.headers, 'pay-version': '2026-02-19.preview' },
  })

const submit = (paid: CheckoutPayment, transactionHash: string) =>
  gatewayCall(ctx.app, paid, '/confirm', {
    method: 'POST',
    payload: { walletId: 'browser', optionId: 'usdc-31337', account: `eip155:31337:${BUYER.address}`, transactionHash },
  })

const statusOf = async (id: string) => (await paymentStore(ctx.tdb.db).findById(id))?.status

async function unappliedReason(txHash: string): Promise<string | undefined> {
  const [row] = await ctx.tdb.db.query<{ reason: string }>('SELECT reason FROM evm_unapplied_transfers WHERE tx_hash = $1', [
    txHash.toLowerCase(),
  ])
  return row?.reason
}

async function transitionsTo(paymentId: string): Promise<string[]> {
  const rows = await ctx.tdb.db.query<{ to_status: string }>(
    'SELECT to_status FROM payment_transitions WHERE payment_id = $1 ORDER BY id',
    [paymentId],
  )
  return rows.map((row) => row.to_status)
}

describe('a transfer after the shop cancelled', () => {
  it('found by the watcher is unapplied as payment_cancelled, and the payment stays cancelled', async () => {
    const paid = await openPayment()
    expect((await cancel(paid.paymentId)).statusCode).toBe(200)
    const hash = await transfer(chain, { paymentId: paid.paymentId, amount: paid.amount })
    await watcher.runOnce()
    expect(await statusOf(paid.paymentId)).toBe('cancelled')
    expect(await unappliedReason(hash)).toBe('payment_cancelled')
  })

  it('posted by the page is refused as cancelled and kept for a refund', async () => {
    const paid = await openPayment()
    await cancel(paid.paymentId)
    const hash = await transfer(chain, { paymentId: paid.paymentId, amount: paid.amount })
    const posted = await submit(paid, hash)
    expect(posted.statusCode).toBe(409)
    expect(posted.json()).toMatchObject({ details: { status: 'cancelled', late: true, reason: 'payment_cancelled' } })
    expect(await unappliedReason(hash)).toBe('payment_cancelled')
  })
})

describe('a cancel racing the buyer’s transaction', () => {
  // Each round starts both at once; whichever takes the payment's row lock first wins, and the other sees it.
  async function race(pay: (paid: Quoted, hash: string) => Promise<unknown>): Promise<('cancel' | 'buyer')[]> {
    const winners: ('cancel' | 'buyer')[] = []
    for (let round = 0; round < 6; round++) {
      const paid = await openPayment()
      const hash = await transfer(chain, { paymentId: paid.paymentId, amount: paid.amount })
      const [cancelled] = await Promise.all([cancel(paid.paymentId), pay(paid, hash)])
      const status = await statusOf(paid.paymentId)
      if (cancelled.statusCode === 200) {
        expect(status).toBe('cancelled')
        expect(await unappliedReason(hash)).toBe('payment_cancelled')
        expect(await transitionsTo(paid.paymentId)).toEqual(['pending', 'cancelled'])
        winners.push('cancel')
      } else {
        expect(cancelled.json()).toMatchObject({ code: 'payment_not_cancellable', details: { status: 'processing' } })
        expect(status).toBe('processing')
        expect(await unappliedReason(hash)).toBeUndefined()
        expect(await transitionsTo(paid.paymentId)).toEqual(['pending', 'processing'])
        winners.push('buyer')
      }
    }
    return winners
  }

  it('posted by the checkout page: exactly one wins each time', async () => {
    const winners = await race((paid, hash) => submit(paid, hash))
    expect(winners).toHaveLength(6)
  })

  it('found by the chain watcher: exactly one wins each time', async () => {
    const winners = await race(() => watcher.runOnce())
    expect(winners).toHaveLength(6)
  })
})
