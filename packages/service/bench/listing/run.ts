// The listing bench (`pnpm bench`, after the throughput run): a million payments on the default embedded
// engine, then every filter alone, a few combinations and both sorts, each timed over real HTTP on
// loopback: the first page (page + stats), a page 1,000 pages deep, and the stats alone. Then the dashboard's
// Payments page on the same app and payments (dashboard.ts). Targets are printed beside the figures, never
// asserted; ratios are against a status read measured in the same run.
import type { AddressInfo } from 'node:net'
import { createApp } from '../../src/app.ts'
import type { AppConfig } from '../../src/app-config.ts'
import { startEmbeddedServer } from '../../src/db/embedded/server.ts'
import { migrate } from '../../src/db/migrate.ts'
import { openPostgres } from '../../src/db/postgres.ts'
import type { ListingFilter } from '../../src/listing/filter.ts'
import { readStats } from '../../src/listing/stats.ts'
import { accountStore } from '../../src/accounts/store.ts'
import { benchDashboard } from './dashboard.ts'
import { checkRollups } from './exactness.ts'
import { printTable, type Timing, timeIt } from './timing.ts'
import { BENCH_PARTNER, seedPayments } from './seed.ts'

const PAYMENTS = Number(process.env.BENCH_LISTING_PAYMENTS ?? 1_000_000)
const SAMPLES = Number(process.env.BENCH_LISTING_SAMPLES ?? 40)
const DEPTH = 1_000
const PAGE = 50

const log = (line: string) => process.stderr.write(`${line}\n`)
const now = new Date()
// The embedded server started here rather than by openDatabase: the dashboard's COPY baseline needs its URL.
const server = await startEmbeddedServer()
// The seed's bulk statements take longer than a request's statement may.
const db = await openPostgres({ url: server.url(), queryTimeoutMs: 0 }).catch(async (error) => {
  await server.stop()
  throw error
})
try {
  await migrate(db)
  const seedStart = performance.now()
  const seeded = await seedPayments(db, { payments: PAYMENTS, merchants: 200, buyers: 300_000, now }, log)
  const seedSeconds = (performance.now() - seedStart) / 1000
  log(`seeded ${PAYMENTS.toLocaleString('en-US')} payments in ${seedSeconds.toFixed(1)} s`)
  await checkRollups(db, BENCH_PARTNER, log)

  const config: AppConfig = { sandbox: false, paymentTtlSeconds: 900, pollInMs: 2_000, checkoutUrl: () => 'https://checkout.invalid/pay' }
  const app = await createApp({ db, config })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  const key = await accountStore(db).createApiKey({ partnerId: BENCH_PARTNER, mode: 'live', now })
  const headers = { 'api-key': key.key }
  const get = async (path: string) => {
    const response = await fetch(base + path, { headers })
    const body = await response.text()
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${body}`)
    return JSON.parse(body) as { data: { paymentId: string }[]; nextCursor: string | null }
  }

  const [top, mid] = [seeded.merchantIds[0], seeded.merchantIds[20]]
  const day = (offset: number) => new Date(now.getTime() - offset * 86_400_000).toISOString()
  const scenarios: Array<{ name: string; query: string; filter: Omit<ListingFilter, 'partnerId'>; target: number }> = [
    { name: 'no filter', query: '', filter: {}, target: 100 },
    { name: 'no filter, amount desc', query: 'sortBy=amount', filter: {}, target: 100 },
    { name: 'no filter, date asc', query: 'sortDir=asc', filter: {}, target: 100 },
    { name: 'whole year by startTs', query: `startTs=${day(365)}`, filter: { startTs: day(365) }, target: 100 },
    { name: 'one month', query: `startTs=${day(200)}&endTs=${day(170)}`, filter: { startTs: day(200), endTs: day(170) }, target: 100 },
    { name: 'top merchant (17 %)', query: `merchantId=${top}`, filter: { merchantIds: [top ?? ''] }, target: 100 },
    { name: 'merchant #20', query: `merchantId=${mid}`, filter: { merchantIds: [mid ?? ''] }, target: 100 },
    { name: 'status=succeeded', query: 'status=succeeded', filter: { statuses: ['succeeded'] }, target: 100 },
    { name: 'status=failed', query: 'status=failed', filter: { statuses: ['failed'] }, target: 100 },
    { name: 'token_symbol=USDT', query: 'token_symbol=USDT', filter: { tokenSymbols: ['USDT'] }, target: 100 },
    { name: 'network=Polygon', query: 'network=eip155:137', filter: { networks: ['eip155:137'] }, target: 100 },
    { name: 'referenceId=0012', query: 'referenceId=0012', filter: { referenceId: '0012' }, target: 100 },
    {
      name: 'succeeded USDC on Base, amount',
      query: 'status=succeeded&token_symbol=USDC&network=eip155:8453&sortBy=amount',
      filter: { statuses: ['succeeded'], tokenSymbols: ['USDC'], networks: ['eip155:8453'] },
      target: 100,
    },
    {
      name: 'top merchant, last 30 days',
      query: `merchantId=${top}&startTs=${day(30)}`,
      filter: { merchantIds: [top ?? ''], startTs: day(30) },
      target: 25,
    },
    {
      name: 'merchant #20, last 30 days',
      query: `merchantId=${mid}&startTs=${day(30)}`,
      filter: { merchantIds: [mid ?? ''], startTs: day(30) },
      target: 25,
    },
  ]

  // The baseline: the cheapest authenticated read, a payment's status, in the same process and run.
  const sample = (await get('/v1/payments?limit=1')).data[0]?.paymentId
  const baseline = await timeIt(SAMPLES, () => get(`/v1/payments/${sample}/status`))
  const rows: Timing[] = []
  for (const scenario of scenarios) {
    const q = (extra: string) => `/v1/payments?${[scenario.query, extra].filter(Boolean).join('&')}`
    const first = await timeIt(SAMPLES, () => get(q(`limit=${PAGE}`)))
    const second = (await get(q(`limit=${PAGE}`))).nextCursor
    const next = second ? await timeIt(SAMPLES, () => get(q(`limit=${PAGE}&cursor=${encodeURIComponent(second)}`))) : undefined
    // 1,000 pages of 50 deep: walked 200 rows at a time (the cursor does not bind the page size).
    let cursor = second
    let depth = 1
    while (cursor && depth < DEPTH - 4) {
      const body = await get(q(`limit=200&cursor=${encodeURIComponent(cursor)}`))
      cursor = body.nextCursor
      depth += 4
    }
    const deep = cursor ? await timeIt(SAMPLES, () => get(q(`limit=${PAGE}&cursor=${encodeURIComponent(cursor)}`))) : undefined
    const filter = { partnerId: BENCH_PARTNER, ...scenario.filter }
    const stats = await timeIt(SAMPLES, () => readStats(db, filter))
    rows.push({ name: scenario.name, first, next, deep, deepPages: cursor ? depth + 1 : undefined, stats, target: scenario.target })
    log(`  ${scenario.name} done`)
  }
  const dashboard = await benchDashboard({
    db,
    databaseUrl: server.url(),
    base,
    config,
    partnerId: BENCH_PARTNER,
    topMerchant: top ?? '',
    payments: PAYMENTS,
    samples: SAMPLES,
    now,
    baseline,
    log,
  })
  await app.close()
  printTable({ rows, baseline, payments: PAYMENTS, paymentsSeconds: seeded.paymentsSeconds, seedSeconds })
  process.stdout.write(dashboard)
} finally {
  await db.close()
  await server.stop()
}
