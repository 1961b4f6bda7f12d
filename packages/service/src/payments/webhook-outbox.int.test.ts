// The hop from a status change to its webhook: the same commit that moves a payment writes its event and a
// delivery for each of the merchant's endpoints (the trigger payments_webhook_event, migrations/0008), so a
// change is never announced without happening, nor happens without being announced, whichever code path
// makes it: a transition, a unit of work that is abandoned, the deadline.
import { beforeEach, describe, expect, it } from 'vitest'
import { type Account, createAccount, createBody, testClock, useTestApp } from '../../test/fixtures.ts'
import { registerEndpoint } from '../../test/webhook-fixtures.ts'
import type { PaymentRecord } from './record.ts'
import { paymentStore } from './store.ts'
import { paymentService } from './service.ts'

const clock = testClock()
// The endpoint's host resolves to a public address; nothing here sends anything.
const ctx = useTestApp({ clock, config: { sandbox: true }, outbound: { lookup: async () => [{ address: '93.184.216.34', family: 4 }] } })

let account: Account
let payments: ReturnType<typeof paymentService>
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db, { sandbox: true, now: clock.now() })
  await registerEndpoint(ctx.app, account, { url: 'https://hooks.example.com/till' })
  payments = paymentService({ db: ctx.tdb.db, clock, policy: { paymentTtlSeconds: 900, allowLoopbackRedirects: true } })
})

async function newPayment(): Promise<PaymentRecord> {
  const { payment } = await payments.create({ partnerId: account.partnerId, merchantId: account.merchantId, request: createBody() })
  return payment
}

/** The payment's events, each with how many deliveries it has. */
const outbox = (paymentId: string) =>
  ctx.tdb.db.query<{ type: string; deliveries: number }>(
    `SELECT e.type, (SELECT count(*)::int FROM webhook_deliveries d WHERE d.event_id = e.id) AS deliveries
       FROM webhook_events e WHERE e.payment_id = $1 ORDER BY e.created_at, e.id`,
    [paymentId],
  )

describe('a status change and its webhook event', () => {
  it('are written by one commit: a transition writes its event and a delivery to the endpoint', async () => {
    const payment = await newPayment()
    expect(await outbox(payment.id)).toEqual([])
    await payments.transition({ payment, to: 'failed', reason: 'declined' })
    expect(await outbox(payment.id)).toEqual([{ type: 'payment.failed', deliveries: 1 }])
  })

  it('are abandoned together: a unit of work that throws after its transition leaves neither', async () => {
    const payment = await newPayment()
    const abandoned = payments.atomically(async ({ transition }) => {
      await transition({ payment, to: 'processing', reason: 'transaction_submitted' })
      throw new Error('the transfer could not be bound')
    })
    await expect(abandoned).rejects.toThrow('the transfer could not be bound')
    expect((await paymentStore(ctx.tdb.db).findById(payment.id))?.status).toBe('pending')
    expect(await outbox(payment.id)).toEqual([])
  })

  it('come from the deadline too: an expiry by the sweeper writes payment.expired', async () => {
    const payment = await newPayment()
    clock.advance(901_000)
    await paymentStore(ctx.tdb.db).expireDue(clock.now(), 10)
    expect(await outbox(payment.id)).toEqual([{ type: 'payment.expired', deliveries: 1 }])
  })
})
