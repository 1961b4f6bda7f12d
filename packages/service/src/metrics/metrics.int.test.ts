// What an operator's Prometheus scrapes from `--metrics-port`: each metric moves with what Till did. The app
// runs in sandbox mode with its own webhook dispatcher (woken by the outbox's NOTIFY), real HTTPS logo and
// webhook servers on loopback, and its metrics served by the same listener `till serve` uses.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type Account, createAccount, createBody, openTestDatabase, testClock, useTestApp } from '../../test/fixtures.ts'
import { LOGO_HOSTS, logoImage, startLogoServer } from '../../test/logo-server.ts'
import { registerEndpoint, sandboxPayment } from '../../test/webhook-fixtures.ts'
import { startWebhookReceiver } from '../../test/webhook-receiver.ts'
import { tillMetrics } from './catalog.ts'
import { databaseSource } from './database.ts'
import { listenForMetrics, type MetricsListener } from './listener.ts'
import { type Scrape, scrape } from './scrape.test-helper.ts'

const logos = await startLogoServer()
const receiver = await startWebhookReceiver()
afterAll(() => Promise.all([logos.close(), receiver.close()]))
const lookup = (hostname: string) =>
  (LOGO_HOSTS as readonly string[]).includes(hostname) ? logos.lookup(hostname) : receiver.lookup(hostname)

const clock = testClock()
const metrics = tillMetrics({ process: true })
const ctx = useTestApp({
  clock,
  metrics,
  outbound: { lookup, ca: [logos.ca, receiver.ca] },
  config: {
    sandbox: true,
    // The dispatcher is woken by each new delivery's NOTIFY; its timer never comes due on the test clock.
    jobs: { webhookDispatchMs: 600_000 },
    apiRateLimits: { authFailuresPerAddress: { limit: 2, windowMs: 60_000 } },
  },
})
let listener: MetricsListener
beforeAll(async () => {
  listener = await listenForMetrics(metrics, { host: '127.0.0.1', port: 0 })
})
afterAll(() => listener?.close())

let account: Account
beforeEach(async () => {
  receiver.answer()
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})
const read = (): Promise<Scrape> => scrape(listener.url)

describe('the metrics listener', () => {
  it('serves Prometheus text at GET /metrics, on loopback, and nothing else', async () => {
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
    const response = await fetch(listener.url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    expect((await fetch(listener.url.replace(/\/metrics$/, '/'))).status).toBe(404)
    expect((await fetch(listener.url, { method: 'POST' })).status).toBe(404)
  })

  it('is never served on the public port', async () => {
    const response = await ctx.app.inject({ url: '/metrics' })
    expect(response.statusCode).toBe(404)
    expect(response.body).not.toContain('till_')
  })

  it("carries the process's own metrics", async () => {
    const now = await read()
    expect(now.value('process_cpu_user_seconds_total')).toBeGreaterThan(0)
    expect(now.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
    expect(now.value('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0)
  })
})

describe('HTTP', () => {
  it('counts and times each answer by its route pattern, not its path, and counts rate-limit refusals', async () => {
    const before = await read()
    const created = await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: account.headers, payload: createBody() })
    expect(created.statusCode).toBe(201)
    const { paymentId } = created.json<{ paymentId: string }>()
    for (const id of [paymentId, 'pay_unknown'])
      await ctx.app.inject({ url: `/v1/merchant/payment/${id}/status`, headers: account.headers })
    await ctx.app.inject({ url: '/no/such/route' })
    // Two failed key checks from one address are allowed a minute; the third is refused.
    const wrongKey = () =>
      ctx.app.inject({
        url: '/v1/merchant/payment/pay_x/status',
        headers: { 'api-key': 'till_sk_live_wrong', 'merchant-id': account.merchantId },
      })
    const statuses = [(await wrongKey()).statusCode, (await wrongKey()).statusCode, (await wrongKey()).statusCode]
    expect(statuses).toEqual([401, 401, 429])
    // The address's refusals last the minute out.
    clock.advance(60_000)

    const after = await read()
    const status = '/v1/merchant/payment/:id/status'
    const moved = (labels: Record<string, string>) => after.delta(before, 'till_http_requests_total', labels)
    expect(moved({ method: 'POST', route: '/v1/merchant/payment', status: '201' })).toBe(1)
    expect(moved({ method: 'GET', route: status, status: '200' })).toBe(1)
    expect(moved({ method: 'GET', route: status, status: '404' })).toBe(1)
    expect(moved({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1)
    expect(moved({ method: 'GET', route: status, status: '401' })).toBe(2)
    expect(after.series('till_http_requests_total').some((labels) => labels.route?.includes('pay_'))).toBe(false)
    expect(after.delta(before, 'till_http_request_duration_seconds_count', { method: 'GET', route: status })).toBe(5)
    expect(after.delta(before, 'till_rate_limit_refusals_total', { route: status })).toBe(1)
  })
})

describe('payments', () => {
  it('counts creations once, and every transition by its from and to status, whichever path made it', async () => {
    const before = await read()
    const failed = await sandboxPayment(ctx.app, account, ['processing', 'failed'])
    // A replayed create (same referenceId and amount) is the same payment: not counted again.
    const body = createBody({ referenceId: 'order-expires' })
    const first = await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: account.headers, payload: body })
    const again = await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: account.headers, payload: body })
    expect(again.json()).toMatchObject({ paymentId: first.json<{ paymentId: string }>().paymentId })
    // Past its deadline, a read expires it.
    clock.advance(901_000)
    await ctx.app.inject({ url: `/v1/merchant/payment/${first.json<{ paymentId: string }>().paymentId}/status`, headers: account.headers })
    expect(failed).toMatch(/^pay_/)

    const after = await read()
    expect(after.delta(before, 'till_payments_created_total')).toBe(2)
    const moved = (from: string, to: string) => after.delta(before, 'till_payment_transitions_total', { from, to })
    expect(moved('pending', 'processing')).toBe(1)
    expect(moved('processing', 'failed')).toBe(1)
    expect(moved('pending', 'expired')).toBe(1)
  })
})

describe('logos', () => {
  it('counts imports by outcome', async () => {
    const before = await read()
    logos.serve('/good.png', await logoImage(512))
    logos.serve('/not-an-image.png', 'hello', { 'content-type': 'image/png' })
    let keys = 0
    const create = (iconUrl: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/merchants',
        headers: { 'api-key': account.apiKey, 'idempotency-key': `logo-${++keys}` },
        payload: { merchantName: 'Till Tea', merchantEmail: 'tea@till.example', iconUrl },
      })
    expect((await create(logos.url('/good.png'))).statusCode).toBe(201)
    expect((await create(logos.url('/not-an-image.png'))).statusCode).toBe(400)
    const after = await read()
    expect(after.delta(before, 'till_logo_imports_total', { outcome: 'imported' })).toBe(1)
    expect(after.delta(before, 'till_logo_imports_total', { outcome: 'refused' })).toBe(1)
  })
})

describe('webhooks', () => {
  it('count attempts by outcome, time them, and show the backlog, pending and held', async () => {
    const { endpoint } = await registerEndpoint(ctx.app, account, { url: receiver.url() })
    const before = await read()
    const attempts = async (outcome: string) => (await read()).delta(before, 'till_webhook_attempts_total', { outcome })

    receiver.answer(500)
    await sandboxPayment(ctx.app, account, ['failed'])
    await expect.poll(() => attempts('retry')).toBe(1)
    expect((await read()).value('till_webhook_backlog', { status: 'pending' })).toBe(1)

    // The retry comes due; a new event wakes the dispatcher, which sends both.
    clock.advance(60_000)
    await sandboxPayment(ctx.app, account, ['failed'])
    await expect.poll(() => attempts('delivered')).toBe(2)
    const after = await read()
    expect(after.value('till_webhook_backlog', { status: 'pending' })).toBe(0)
    expect(after.delta(before, 'till_webhook_attempt_duration_seconds_count')).toBe(3)

    // An endpoint disabled (after failing for days, or by the merchant) holds what comes for it.
    await ctx.tdb.db.query(`UPDATE webhook_endpoints SET status = 'disabled' WHERE id = $1`, [endpoint.id])
    await sandboxPayment(ctx.app, account, ['failed'])
    expect((await read()).value('till_webhook_backlog', { status: 'held' })).toBe(1)
  })
})

describe('the database pool', () => {
  it("shows this instance's pool in use", async () => {
    const now = await read()
    expect(now.value('till_db_pool_connections', { state: 'max' })).toBe(20)
    expect(now.value('till_db_pool_connections', { state: 'idle' })).toBeGreaterThan(0)
  })

  it('counts queries that had to wait for a connection', async () => {
    const small = await openTestDatabase({ max: 2 })
    // Both connections are held until the test lets them go; a third query waits for one.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    try {
      const own = tillMetrics()
      own.readFrom(databaseSource(small.db))
      const holders = [0, 1].map(() => small.db.transaction(() => held))
      const busy = async () => (await own.registry.getSingleMetricAsString('till_db_pool_connections')).includes('state="busy"} 2')
      await expect.poll(busy, { timeout: 15_000 }).toBe(true)
      const waiting = small.db.query('SELECT 1')
      // The scrape itself does not queue behind it: the database-wide gauges keep their last values.
      const during = await own.registry.metrics()
      expect(during).toContain('till_db_pool_waiting 1')
      expect(during).toContain('till_db_pool_waits_total 1')
      release()
      await Promise.all([...holders, waiting])
      expect(await own.registry.metrics()).toContain('till_db_pool_waiting 0')
    } finally {
      release()
      await small.close()
    }
  })
})
