// The webhook bench (`pnpm bench`, after the listing): the service in-process on the default embedded engine,
// its real dispatcher woken by the outbox's NOTIFY, and a merchant's HTTPS endpoint on loopback (a worker
// thread) that answers 200 at once. It times (a) a status change to its delivery, one change at a time, and
// (b) how fast a backlog of pending deliveries drains; a bare HTTPS POST loop to the same endpoint in the same
// run is the baseline. Goals are printed beside the figures, never asserted; it exits 0 either way, and 1 when
// it could not measure (an answer that was not 2xx, a delivery that never came).
import { Worker } from 'node:worker_threads'
import { DEFAULT_API_VERSION } from '@till/contract'
import type { FastifyInstance } from 'fastify'
import { Agent, request } from 'undici'
import { createApp } from '../../src/app.ts'
import { openDatabase } from '../../src/db/open.ts'
import { randomToken } from '../../src/core/ids.ts'
import { DISPATCH_IN_FLIGHT } from '../../src/webhooks/dispatcher.ts'
import { webhookSender } from '../../src/webhooks/sender.ts'
import { accountStore } from '../../src/accounts/store.ts'
import { RECEIVER_HOST } from '../../test/webhook-receiver.ts'
import type { FromReceiver } from './receiver-worker.ts'

function positiveInteger(name: string, fallback: number, max: number): number {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be a whole number from 1 to ${max}`)
  return value
}

const CHANGES = positiveInteger('BENCH_WEBHOOK_CHANGES', 200, 10_000)
const EVENTS = positiveInteger('BENCH_WEBHOOK_EVENTS', 5_000, 100_000)
/** As many POSTs in flight as the dispatcher has, so the baselines are like for like. */
const IN_FLIGHT = DISPATCH_IN_FLIGHT
/** No figure is worth more than this wait: a delivery that has not come by then is a failure. */
const DELIVERY_TIMEOUT_MS = 120_000
const LATENCY_GOAL_MS = 250
const THROUGHPUT_GOAL = 1_000
/** Changes made before the timed ones: connections and the JIT warm up. */
const WARMUP = 10

const log = (line: string) => process.stderr.write(`${line}\n`)
const wallNow = () => performance.timeOrigin + performance.now()

// The receiver first: its thread is up before the service starts dispatching anything.
// A worker thread does not inherit the tsx loader that `--import tsx` gave this one: it registers its own.
const worker = new Worker(
  `const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
   register()
   await import(${JSON.stringify(new URL('./receiver-worker.ts', import.meta.url).href)})`,
  { eval: true },
)
const arrivals = new Map<string, (at: number) => void>()
let unexpected = 0
const receiver = await new Promise<{ port: number; ca: string }>((resolve, reject) => {
  worker.once('error', reject)
  worker.on('message', (message: FromReceiver) => {
    if (message.kind === 'ready') resolve(message)
    else {
      const waiting = message.paymentId === null ? undefined : arrivals.get(message.paymentId)
      if (waiting) {
        arrivals.delete(message.paymentId ?? '')
        waiting(message.at)
      } else if (message.paymentId !== 'baseline') unexpected++
    }
  })
})
const endpointUrl = `https://${RECEIVER_HOST}:${receiver.port}/webhooks`
const lookup = async (hostname: string) => {
  if (hostname === RECEIVER_HOST) return [{ address: '127.0.0.1', family: 4 as const }]
  throw new Error(`${hostname} does not resolve in the bench`)
}

/** Resolves with the time the receiver got the payment's event; rejects after DELIVERY_TIMEOUT_MS. */
function arrivalOf(paymentId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      arrivals.delete(paymentId)
      reject(new Error(`the event of ${paymentId} never arrived`))
    }, DELIVERY_TIMEOUT_MS)
    arrivals.set(paymentId, (at) => {
      clearTimeout(timer)
      resolve(at)
    })
  })
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN

/** `total` calls of `post`, `IN_FLIGHT` at a time; resolves with how many a second were acknowledged with a 2xx. */
async function postLoop(total: number, post: () => Promise<number | null>): Promise<number> {
  let next = 0
  let failed = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < total) {
        next++
        const status = await post()
        if (status === null || status < 200 || status > 299) failed++
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  if (failed > 0) throw new Error(`${failed} of ${total} baseline POSTs were not acknowledged`)
  return total / seconds
}

const db = await openDatabase({})
let app: FastifyInstance | undefined
let exitCode = 0
try {
  app = await createApp({
    db,
    config: {
      sandbox: true,
      paymentTtlSeconds: 3_600,
      pollInMs: 2_000,
      checkoutUrl: () => 'https://checkout.invalid/pay',
      // The dispatcher's timer (retries, missed notifications); NOTIFY wakes it at once regardless.
      jobs: { expirySweepMs: 1_000, webhookDispatchMs: 1_000, statsCompactionMs: 1_000 },
    },
    outbound: { lookup, ca: [receiver.ca] },
  })
  await app.ready()

  const accounts = accountStore(db)
  const now = new Date()
  const partner = await accounts.createPartner({ name: 'Bench Partner', pinnedVersion: DEFAULT_API_VERSION, sandbox: true, now })
  const key = await accounts.createApiKey({ partnerId: partner.id, mode: 'test', now })
  const merchant = await accounts.createMerchant({ partnerId: partner.id, name: 'Bench Shop', email: 'shop@example.com', now })
  const headers = { 'api-key': key.key, 'merchant-id': merchant.id }
  const service = app
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await service.inject({ method, url, headers, ...(payload ? { payload } : {}) })
    if (response.statusCode < 200 || response.statusCode > 299) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
    return response.json<Record<string, unknown>>()
  }
  const createPayment = async () =>
    String(
      (
        await call('POST', '/v1/merchant/payment', {
          amount: { unit: 'iso4217/EUR', value: '1999' },
          referenceId: `order-${randomToken(8)}`,
        })
      ).paymentId,
    )
  const fail = (paymentId: string) => call('POST', `/v1/sandbox/payments/${paymentId}/simulate`, { outcome: 'failed' })
  await call('POST', '/v1/webhook-endpoints', { url: endpointUrl })

  // (a) One change at a time: from just before the simulate call (its transaction commits inside it) to
  // the receiver's arrival, when it answers 200.
  log(`latency: ${CHANGES} status changes, one at a time`)
  const latencies: number[] = []
  for (let i = -WARMUP; i < CHANGES; i++) {
    const paymentId = await createPayment()
    const arrival = arrivalOf(paymentId)
    const started = wallNow()
    await fail(paymentId)
    const at = await arrival
    if (i >= 0) latencies.push(at - started)
  }
  latencies.sort((a, b) => a - b)
  const [p50, p95] = [percentile(latencies, 0.5), percentile(latencies, 0.95)]

  // (b) A backlog: EVENTS pending payments fail in one UPDATE, so the outbox trigger writes EVENTS events
  // and deliveries in one transaction and its NOTIFY wakes the dispatcher at commit. Timed from the commit
  // to the last arrival.
  log(`throughput: creating ${EVENTS.toLocaleString('en-US')} pending payments`)
  const backlog: string[] = []
  for (let made = 0; made < EVENTS; ) {
    const chunk = Math.min(32, EVENTS - made)
    backlog.push(...(await Promise.all(Array.from({ length: chunk }, createPayment))))
    made += chunk
  }
  const delivered = Promise.all(backlog.map(arrivalOf))
  const updateStarted = performance.now()
  const changed = await db.query(`UPDATE payments SET status = 'failed', updated_at = now() WHERE id = ANY($1) RETURNING id`, [backlog])
  const committed = wallNow()
  const updateMs = performance.now() - updateStarted
  if (changed.length !== EVENTS) throw new Error(`the UPDATE changed ${changed.length} payments, not ${EVENTS}`)
  log(`throughput: ${EVENTS.toLocaleString('en-US')} deliveries queued (UPDATE ${updateMs.toFixed(0)} ms), draining`)
  const last = Math.max(...(await delivered))
  const drainSeconds = (last - committed) / 1000
  const throughput = EVENTS / drainSeconds
  // The dispatcher records an attempt after the receiver's answer: give the last records a moment to land.
  const attemptsMade = async () => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM webhook_attempts'))[0]?.n)
  for (let wait = 0; wait < 100 && (await attemptsMade()) < CHANGES + WARMUP + EVENTS; wait++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const [outcomes] = await db.query<{ delivered: string; attempts: string; other: string }>(
    `SELECT count(*) FILTER (WHERE status = 'delivered') AS delivered, count(*) FILTER (WHERE status <> 'delivered') AS other,
            (SELECT count(*) FROM webhook_attempts) AS attempts
       FROM webhook_deliveries`,
  )
  const deliveredRows = Number(outcomes?.delivered)
  await app.close()
  app = undefined

  // Baselines, same receiver, same in-flight count: a plain keep-alive pool (what HTTPS itself costs), and
  // the service's own sender without the database (its address checks and pinned pools, signing aside).
  const body = JSON.stringify({ type: 'payment.failed', data: { paymentId: 'baseline', padding: 'x'.repeat(1_400) } })
  const postHeaders = { 'content-type': 'application/json', 'webhook-id': 'evt_baseline' }
  log(`baseline: ${EVENTS.toLocaleString('en-US')} bare HTTPS POSTs over a keep-alive pool`)
  const pool = new Agent({ connections: IN_FLIGHT, connect: { ca: [receiver.ca] } })
  const ipUrl = `https://127.0.0.1:${receiver.port}/webhooks`
  const bare = await postLoop(EVENTS, async () => {
    const response = await request(ipUrl, { dispatcher: pool, method: 'POST', headers: postHeaders, body })
    await response.body.dump()
    return response.statusCode
  })
  await pool.close()
  log(`baseline: ${EVENTS.toLocaleString('en-US')} POSTs through webhookSender`)
  const send = webhookSender({ policy: { allowLoopback: true }, lookup, ca: [receiver.ca] })
  const senderRate = await postLoop(EVENTS, async () => (await send(endpointUrl, postHeaders, body)).statusCode)

  const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
  const mark = (ok: boolean) => (ok ? '✓' : '✗')
  const rows = [
    ['measure', 'figure', 'goal', '', '× bare'],
    [`change → delivered, p50 (${CHANGES} changes, one at a time)`, `${p50.toFixed(1)} ms`, '', '', ''],
    [`change → delivered, p95`, `${p95.toFixed(1)} ms`, `≤ ${LATENCY_GOAL_MS} ms`, mark(p95 <= LATENCY_GOAL_MS), ''],
    [
      `dispatch, ${integer.format(EVENTS)} pending → delivered`,
      `${integer.format(throughput)}/s`,
      `≥ ${integer.format(THROUGHPUT_GOAL)}/s`,
      mark(throughput >= THROUGHPUT_GOAL),
      `${(throughput / bare).toFixed(2)}×`,
    ],
    [`baseline: bare HTTPS POST, keep-alive, ${IN_FLIGHT} in flight`, `${integer.format(bare)}/s`, '', '', '1.00×'],
    [
      `webhookSender alone (no database), ${IN_FLIGHT} in flight`,
      `${integer.format(senderRate)}/s`,
      '',
      '',
      `${(senderRate / bare).toFixed(2)}×`,
    ],
  ]
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? []
  const line = (row: string[]) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')
  const header = line(rows[0] ?? [])
  const printed = [
    '',
    'Webhooks (default embedded engine, in-process service, receiver on loopback in a worker thread)',
    header,
    '-'.repeat(header.length),
    ...rows.slice(1).map(line),
    `backlog: UPDATE of ${integer.format(EVENTS)} payments (outbox trigger included) ${updateMs.toFixed(0)} ms; drained in ${drainSeconds.toFixed(2)} s; ` +
      `${integer.format(deliveredRows)} deliveries delivered, ${outcomes?.other} not; ${outcomes?.attempts} attempts in all`,
  ]
  if (unexpected > 0) printed.push(`!! ${unexpected} arrivals no change was waiting for (sent twice?)`)
  process.stdout.write(`${printed.join('\n')}\n`)
  if (unexpected > 0 || deliveredRows !== CHANGES + WARMUP + EVENTS) exitCode = 1
} catch (error) {
  process.stdout.write(`!! the webhook bench could not measure: ${error instanceof Error ? error.message : String(error)}\n`)
  // What the failed attempts said, if the dispatcher got that far: the likeliest reason a delivery never came.
  const failures = await db
    .query<{ error: string; n: string }>(
      `SELECT coalesce(error, 'HTTP ' || status_code) AS error, count(*) AS n FROM webhook_attempts
        WHERE error IS NOT NULL GROUP BY 1 ORDER BY 2 DESC LIMIT 5`,
    )
    .catch(() => [])
  for (const failure of failures) process.stdout.write(`!!   ${failure.n} attempts: ${failure.error}\n`)
  exitCode = 1
} finally {
  await app?.close()
  await db.close()
  worker.postMessage('close')
  await new Promise((resolve) => worker.once('exit', resolve))
}
process.exitCode = exitCode
