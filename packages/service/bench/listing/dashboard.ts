// The dashboard's Payments page over the listing bench's payments, in the same run and on the same app: a
// signed-in owner's requests as the page makes them (the first page with its stats, and the chart's daily
// data), and "Export CSV" streamed to the end, its rows/s against a raw COPY of the same rows and its memory
// sampled while it runs. Figures are printed beside their goals, never asserted.
import v8 from 'node:v8'
import vm from 'node:vm'
import pg from 'pg'
import { to as copyTo } from 'pg-copy-streams'
import type { AppConfig } from '../../src/app-config.ts'
import { systemClock } from '../../src/core/clock.ts'
import type { Database } from '../../src/db/port.ts'
import { dashboardPeople } from '../../src/dashboard/service.ts'
import { dashboardUrls } from '../../src/dashboard/urls.ts'
import { type ListingFilter, paymentConditions, SqlParams } from '../../src/listing/filter.ts'
import { paymentColumns } from '../../src/payments/index.ts'
import { type Sample, timeIt } from './timing.ts'

export type DashboardBenchInput = {
  db: Database
  /** The database's URL, for COPY on a connection of its own. */
  databaseUrl: string
  /** The app, listening: `http://127.0.0.1:<port>`. */
  base: string
  /** The app's config: the dashboard's origin, which its CSRF check expects in `Origin`, comes from it. */
  config: Pick<AppConfig, 'checkoutUrl' | 'publicUrl'>
  partnerId: string
  topMerchant: string
  payments: number
  samples: number
  now: Date
  /** The v1 status read measured in the same run. */
  baseline: Sample
  log: (line: string) => void
}

const PAGE = 50
const GOAL_MS = 100
const SAMPLE_EVERY_MS = 50
const PASSWORD = 'plum-orbit-violet-kettle'

// A heap figure taken after a full collection is the live heap, not whatever garbage the last one left.
v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

/** Runs the dashboard's scenarios and exports; returns the lines to print after the listing's own table. */
export async function benchDashboard(input: DashboardBenchInput): Promise<string> {
  const cookie = await signIn(input)
  const get = async (path: string) => {
    const response = await fetch(input.base + path, { headers: { cookie } })
    const body = await response.text()
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${body}`)
    return body
  }
  const day = (offset: number) => new Date(input.now.getTime() - offset * 86_400_000).toISOString()
  const scenarios = [
    { name: 'page+stats, no filter', path: `/dashboard/api/payments?limit=${PAGE}` },
    { name: 'page+stats, status=succeeded', path: `/dashboard/api/payments?limit=${PAGE}&status=succeeded` },
    { name: 'page+stats, search q=0012 (a referenceId piece)', path: `/dashboard/api/payments?limit=${PAGE}&q=0012` },
    { name: 'page+stats, one month', path: `/dashboard/api/payments?limit=${PAGE}&startTs=${day(200)}&endTs=${day(170)}` },
    { name: 'page+stats, top merchant', path: `/dashboard/api/payments?limit=${PAGE}&merchantId=${input.topMerchant}` },
    { name: 'daily (chart), no filter', path: '/dashboard/api/payments/daily' },
  ]
  const timings: { name: string; sample: Sample }[] = []
  for (const scenario of scenarios) {
    timings.push({ name: scenario.name, sample: await timeIt(input.samples, () => get(scenario.path)) })
    input.log(`  dashboard: ${scenario.name} done`)
  }

  // Two date ranges ending 30 days ago, of about 10,000 and 100,000 payments (the seed spreads them evenly
  // over the year: a hundredth and a tenth of a million; at most nine tenths of a smaller run's), the exact
  // count read first. The small one goes first, so that growth the process keeps from the first export
  // cannot flatter the big one.
  const range = (rows: number) => {
    const days = 365 * Math.min(0.9, rows / input.payments)
    const end = input.now.getTime() - 30 * 86_400_000
    return { startTs: new Date(end - days * 86_400_000).toISOString(), endTs: new Date(end).toISOString() }
  }
  const exports: ExportFigures[] = []
  for (const target of [10_000, 100_000]) {
    const { startTs, endTs } = range(target)
    const filter: ListingFilter = { partnerId: input.partnerId, startTs, endTs }
    const [counted] = await input.db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM payments WHERE partner_id = $1 AND created_at >= $2::timestamptz AND created_at < $3::timestamptz',
      [input.partnerId, startTs, endTs],
    )
    const matches = Number(counted?.n)
    await copyRows(input.databaseUrl, filter) // warms the cache for both reads alike
    const exported = await exportRows(`${input.base}/dashboard/api/payments/export.csv?startTs=${startTs}&endTs=${endTs}`, cookie)
    const copied = await copyRows(input.databaseUrl, filter)
    if (exported.rows !== matches || copied.rows !== matches) {
      throw new Error(`export from ${startTs} to ${endTs}: ${exported.rows} rows exported and ${copied.rows} copied, ${matches} match`)
    }
    const days = (Date.parse(endTs) - Date.parse(startTs)) / 86_400_000
    exports.push({ name: `${days.toFixed(1)} days (${startTs.slice(0, 10)} to ${endTs.slice(0, 10)})`, matches, exported, copied })
    input.log(`  dashboard: export of ${matches.toLocaleString('en-US')} rows done`)
  }
  return table(timings, exports, input)
}

/** An owner of the partner, invited and joined with a password over HTTP as the invitation page does: the session cookie. */
async function signIn(input: DashboardBenchInput): Promise<string> {
  const people = dashboardPeople({ db: input.db, clock: systemClock })
  const { token } = await people.invite({
    partnerId: input.partnerId,
    email: 'owner@bench.example',
    role: 'owner',
    invitedBy: null,
    origin: { address: null },
  })
  const response = await fetch(`${input.base}/dashboard/api/invitations/${token}/password`, {
    method: 'POST',
    headers: { origin: dashboardUrls(input.config).origin(), 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORD }),
  })
  const body = await response.text()
  if (response.status !== 201) throw new Error(`accepting the invitation: ${response.status} ${body}`)
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('__Host-till_session='))
  if (!cookie) throw new Error(`accepting the invitation set no session cookie: ${response.headers.getSetCookie().join(' | ')}`)
  return cookie
}

type Memory = { rss: number; heapUsed: number }
type Streamed = { rows: number; seconds: number; bytes: number }
type ExportFigures = { name: string; matches: number; exported: Streamed & { before: Memory; peak: Memory }; copied: Streamed }

/** Newlines in a chunk: one per CSV record (no exported field holds a line break). */
function newlines(chunk: Uint8Array): number {
  let count = 0
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) count++
  return count
}

/**
 * The export read to its end over HTTP, rows counted and dropped, while this process's memory (the service
 * and this client both) is sampled every 50 ms: peak growth over the value after a full GC just before.
 */
async function exportRows(url: string, cookie: string): Promise<Streamed & { before: Memory; peak: Memory }> {
  gc()
  const before = process.memoryUsage()
  const peak: Memory = { rss: before.rss, heapUsed: before.heapUsed }
  const sample = () => {
    const now = process.memoryUsage()
    peak.rss = Math.max(peak.rss, now.rss)
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed)
  }
  const timer = setInterval(sample, SAMPLE_EVERY_MS)
  const start = performance.now()
  let lines = 0
  let bytes = 0
  try {
    const response = await fetch(url, { headers: { cookie } })
    if (response.status !== 200 || !response.body) throw new Error(`${url}: ${response.status} ${await response.text()}`)
    for await (const chunk of response.body) {
      lines += newlines(chunk)
      bytes += chunk.byteLength
    }
  } finally {
    clearInterval(timer)
  }
  const seconds = (performance.now() - start) / 1000
  sample()
  return {
    rows: lines - 1,
    seconds,
    bytes,
    before: { rss: before.rss, heapUsed: before.heapUsed },
    peak: { rss: peak.rss - before.rss, heapUsed: peak.heapUsed - before.heapUsed },
  }
}

// The listing's timestamps as text, as page.ts selects them.
const utcText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

/**
 * The floor: what the listing's page query reads (its columns, join, conditions and order) for the whole
 * filter in one `COPY … TO STDOUT WITH CSV`, read to its end on a connection of its own. COPY takes no
 * parameters: the filter's values are written into the statement as literals.
 */
async function copyRows(databaseUrl: string, filter: ListingFilter): Promise<Streamed> {
  const params = new SqlParams()
  const where = paymentConditions(filter, params)
    .join(' AND ')
    .replace(/\$([0-9]+)/g, (_, n: string) => pg.escapeLiteral(String(params.values[Number(n) - 1])))
  const sql = `COPY (SELECT ${paymentColumns('p')},
            m.name AS merchant_name, m.logo_digest AS merchant_logo,
            ${utcText('p.created_at')} AS created_text, ${utcText('p.updated_at')} AS updated_text,
            ${utcText('p.settled_at')} AS settled_text, ${utcText('p.created_at')} AS sort_value
       FROM payments p JOIN merchants m ON m.id = p.merchant_id
      WHERE ${where}
      ORDER BY p.created_at DESC, p.id DESC) TO STDOUT WITH CSV`
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const start = performance.now()
    let lines = 0
    let bytes = 0
    for await (const chunk of client.query(copyTo(sql)) as AsyncIterable<Buffer>) {
      lines += newlines(chunk)
      bytes += chunk.byteLength
    }
    return { rows: lines, seconds: (performance.now() - start) / 1000, bytes }
  } finally {
    await client.end()
  }
}

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1))
const size = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`
const mb = (bytes: number) => `${bytes < 0 ? '−' : '+'}${(Math.abs(bytes) / 1_048_576).toFixed(1)} MB`
const perSecond = (streamed: Streamed) => Math.round(streamed.rows / streamed.seconds)
const count = (n: number) => n.toLocaleString('en-US')

function table(timings: { name: string; sample: Sample }[], exports: ExportFigures[], input: DashboardBenchInput): string {
  const lines: string[] = []
  lines.push('')
  lines.push(
    `Dashboard Payments page over the same ${count(input.payments)} payments, as a signed-in owner (session cookie, HTTP on loopback); ` +
      `×b = p95 / status read p95 (${ms(input.baseline.p95)} ms)`,
  )
  lines.push('')
  lines.push('| request | p50 | p95 | goal | ×b |')
  lines.push('|---|---|---|---|---|')
  for (const { name, sample } of timings) {
    lines.push(
      `| ${name} | ${ms(sample.p50)} | ${ms(sample.p95)} ${sample.p95 <= GOAL_MS ? '✓' : '✗'} | ≤ ${GOAL_MS} | ${(sample.p95 / input.baseline.p95).toFixed(1)} |`,
    )
  }
  lines.push('')
  lines.push(
    'Export CSV (/dashboard/api/payments/export.csv, startTs/endTs) read to its end over HTTP, against COPY (SELECT the listing’s columns, same filter and order) TO STDOUT WITH CSV; ' +
      `memory of this process (service and client) sampled every ${SAMPLE_EVERY_MS} ms, peak growth over its value after a forced GC just before`,
  )
  lines.push('')
  lines.push(
    '| date range | rows | CSV | export s | export rows/s | COPY rows/s | COPY/export | RSS, heap before | peak RSS growth | peak heap growth |',
  )
  lines.push('|---|---|---|---|---|---|---|---|---|---|')
  for (const row of exports) {
    const { exported, copied } = row
    lines.push(
      `| ${row.name} | ${count(row.matches)} | ${(exported.bytes / 1_048_576).toFixed(1)} MB | ${exported.seconds.toFixed(2)} | ` +
        `${count(perSecond(exported))} | ${count(perSecond(copied))} | ${(perSecond(copied) / perSecond(exported)).toFixed(1)}× | ` +
        `${size(exported.before.rss)}, ${size(exported.before.heapUsed)} | ${mb(exported.peak.rss)} | ${mb(exported.peak.heapUsed)} |`,
    )
  }
  return `${lines.join('\n')}\n`
}
