// Bounded growth: what is past its retention goes, a batch at a time, and nothing still needed goes with it
// (a delivery still due, a session still open, an idempotency key still answering replays). Rows are made
// through the API on the test clock; the pruner is run by hand with the time it is told.
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { dashboardMember } from '../../test/dashboard-fixtures.ts'
import { type Account, createAccount } from '../../test/fixtures.ts'
import { handDispatcher, registerEndpoint, sandboxPayment, useWebhookApp } from '../../test/webhook-fixtures.ts'
import { startWebhookReceiver } from '../../test/webhook-receiver.ts'
import type { SqlValue } from '../db/port.ts'
import { DEFAULT_RETENTION, pruneOnce } from './index.ts'

const DAY = 24 * 60 * 60 * 1000
const receiver = await startWebhookReceiver()
afterAll(() => receiver.close())

const { clock, outbound, ctx } = useWebhookApp(receiver)
let account: Account
let start: Date
beforeEach(async () => {
  receiver.answer()
  account = await createAccount(ctx.tdb.db, { sandbox: true })
  start = clock.now()
})

const daysAfterStart = (days: number) => new Date(start.getTime() + days * DAY)
const count = async (sql: string, values: SqlValue[] = []) =>
  Number((await ctx.tdb.db.query<{ n: string }>(`SELECT count(*) AS n FROM (${sql}) rows`, values))[0]?.n)

/** The webhook events, deliveries and attempts a payment left. */
async function webhookRowsOf(paymentId: string) {
  const events = `SELECT id FROM webhook_events WHERE payment_id = $1`
  return {
    events: await count(events, [paymentId]),
    deliveries: await count(`SELECT 1 FROM webhook_deliveries WHERE event_id IN (${events})`, [paymentId]),
    attempts: await count(
      `SELECT 1 FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id IN (${events})`,
      [paymentId],
    ),
  }
}

describe('webhook events', () => {
  it('go with their deliveries and attempts once older than the retention, unless a delivery is still due', async () => {
    await registerEndpoint(ctx.app, account, { url: receiver.url() })
    const dispatcher = await handDispatcher(ctx.tdb.db, clock, { outbound })
    const delivered = await sandboxPayment(ctx.app, account, ['failed'])
    await dispatcher.runOnce()
    receiver.answer(500)
    const stillDue = await sandboxPayment(ctx.app, account, ['failed'])
    await dispatcher.runOnce()
    expect(await webhookRowsOf(delivered)).toEqual({ events: 1, deliveries: 1, attempts: 1 })
    expect(await webhookRowsOf(stillDue)).toEqual({ events: 1, deliveries: 1, attempts: 1 })

    // 29 days on, both are within the 30 days.
    expect(await pruneOnce(ctx.tdb.db, daysAfterStart(29), DEFAULT_RETENTION)).toMatchObject({ 'webhook events': 0 })
    expect(await webhookRowsOf(delivered)).toEqual({ events: 1, deliveries: 1, attempts: 1 })

    // 31 days on, the delivered one goes whole; the one whose retries are still due stays whole.
    expect(await pruneOnce(ctx.tdb.db, daysAfterStart(31), DEFAULT_RETENTION)).toMatchObject({ 'webhook events': 1 })
    expect(await webhookRowsOf(delivered)).toEqual({ events: 0, deliveries: 0, attempts: 0 })
    expect(await webhookRowsOf(stillDue)).toEqual({ events: 1, deliveries: 1, attempts: 1 })

    // The merchant's delivery log answers with what is left.
    const endpoints = await ctx.app.inject({ url: '/v1/webhook-endpoints', headers: account.headers })
    const [endpoint] = endpoints.json<{ data: { id: string }[] }>().data
    const log = await ctx.app.inject({ url: `/v1/webhook-endpoints/${endpoint?.id}/deliveries`, headers: account.headers })
    expect(log.statusCode).toBe(200)
    expect(log.json<{ data: { status: string }[] }>().data.map((delivery) => delivery.status)).toEqual(['pending'])
  })

  it('are kept for the days the operator chose', async () => {
    await registerEndpoint(ctx.app, account, { url: receiver.url() })
    const paymentId = await sandboxPayment(ctx.app, account, ['failed'])
    await (await handDispatcher(ctx.tdb.db, clock, { outbound })).runOnce()
    const policy = { ...DEFAULT_RETENTION, webhookDays: 90 }
    await pruneOnce(ctx.tdb.db, daysAfterStart(89), policy)
    expect((await webhookRowsOf(paymentId)).events).toBe(1)
    await pruneOnce(ctx.tdb.db, daysAfterStart(91), policy)
    expect((await webhookRowsOf(paymentId)).events).toBe(0)
  })
})

describe('idempotency keys and sign-in leftovers', () => {
  it('keep answering for a day, and go a day after they end', async () => {
    const create = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/merchants',
        headers: { 'api-key': account.apiKey, 'idempotency-key': 'kiosk-1' },
        payload: { merchantName: 'Kiosk', merchantEmail: 'kiosk@shop.example' },
      })
    const first = await create()
    expect(first.statusCode).toBe(201)
    await dashboardMember(ctx, clock, account, 'owner')
    const leftovers = async () => ({
      keys: await count('SELECT 1 FROM idempotency_keys'),
      sessions: await count('SELECT 1 FROM dashboard_sessions'),
      invitations: await count('SELECT 1 FROM dashboard_invitations'),
    })
    expect(await leftovers()).toEqual({ keys: 1, sessions: 1, invitations: 1 })

    await pruneOnce(ctx.tdb.db, new Date(start.getTime() + DAY - 1_000), DEFAULT_RETENTION)
    expect(await leftovers()).toEqual({ keys: 1, sessions: 1, invitations: 1 })
    expect((await create()).json()).toEqual(first.json())

    // The invitation ended a day after it was made and is kept a day more; the session lasts 7 days, and 1 more.
    await pruneOnce(ctx.tdb.db, daysAfterStart(3), DEFAULT_RETENTION)
    expect(await leftovers()).toEqual({ keys: 0, sessions: 1, invitations: 0 })
    await pruneOnce(ctx.tdb.db, daysAfterStart(9), DEFAULT_RETENTION)
    expect(await leftovers()).toEqual({ keys: 0, sessions: 0, invitations: 0 })
    // The audit log of the invitation and the sign-up is kept 400 days.
    const audit = await count('SELECT 1 FROM audit_log')
    expect(audit).toBeGreaterThan(0)
    await pruneOnce(ctx.tdb.db, daysAfterStart(399), DEFAULT_RETENTION)
    expect(await count('SELECT 1 FROM audit_log')).toBe(audit)
    await pruneOnce(ctx.tdb.db, daysAfterStart(401), DEFAULT_RETENTION)
    expect(await count('SELECT 1 FROM audit_log')).toBe(0)
  })
})

describe('batches', () => {
  const oldAuditEntries = (n: number) =>
    ctx.tdb.db.query(
      `INSERT INTO audit_log (action, at) SELECT 'sign-in.failed', $1::timestamptz - make_interval(secs => g) FROM generate_series(1, $2) g`,
      [start, n],
    )

  it('go on until a batch comes back short, and count every row', async () => {
    await oldAuditEntries(7)
    expect(await pruneOnce(ctx.tdb.db, daysAfterStart(401), DEFAULT_RETENTION, 2)).toMatchObject({ 'audit log': 7 })
    expect(await count('SELECT 1 FROM audit_log')).toBe(0)
  })

  it('two instances pruning at once take each row once between them', async () => {
    await oldAuditEntries(40)
    const [one, other] = await Promise.all([
      pruneOnce(ctx.tdb.db, daysAfterStart(401), DEFAULT_RETENTION, 3),
      pruneOnce(ctx.tdb.db, daysAfterStart(401), DEFAULT_RETENTION, 3),
    ])
    expect((one['audit log'] ?? 0) + (other['audit log'] ?? 0)).toBe(40)
    expect(await count('SELECT 1 FROM audit_log')).toBe(0)
  })
})
