// A diagnostic beside `pnpm bench`, not part of it: what one status-read query costs in CPU, in this
// process and in PostgreSQL, for the row the service reads today and for narrower or prepared forms.
// It shows how much of a status read is the database access, and what a narrower query would save.
//
//   node --import tsx bench/queries.ts
import pg from 'pg'
import { openDatabase } from '../src/db/open.ts'
import type { Database } from '../src/db/port.ts'
import { systemClock } from '../src/core/clock.ts'
import { newPaymentId } from '../src/core/ids.ts'
import { ensureSandboxAccounts } from '../src/sandbox/seed.ts'
import { PAYMENT_COLUMNS } from '../src/payments/record.ts'
import { paymentStore } from '../src/payments/store.ts'
import { cpuProbe } from './cpu.ts'
import { startBenchCluster } from './postgres.ts'

const ROWS = 3_000
const OPERATIONS = 6_000
// Like the service under load: the pool's 16 clients all busy.
const CONCURRENCY = 16

const FULL_ROW = `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = $1`
const STATUS_ONLY = 'SELECT merchant_id, partner_id, status, expires_at FROM payments WHERE id = $1'

async function seed(db: Database): Promise<string> {
  const sandbox = await ensureSandboxAccounts(db, systemClock)
  const store = paymentStore(db)
  const now = new Date()
  let first = ''
  for (let i = 0; i < ROWS; i++) {
    const id = newPaymentId()
    first ||= id
    await store.insertUnlessLive({
      id,
      merchantId: sandbox.merchantId,
      partnerId: sandbox.partnerId,
      referenceId: `queries-${i}`,
      currency: 'EUR',
      amountMinor: 1999n,
      successUrl: null,
      errorUrl: null,
      redirectEnabled: false,
      createdAt: now,
      expiresAt: new Date(now.getTime() + 3_600_000),
    })
  }
  return first
}

async function time(label: string, postmaster: number | undefined, operation: () => Promise<unknown>) {
  const probe = cpuProbe({ server: process.pid, postgres: postmaster })
  const worker = async (count: number) => {
    for (let i = 0; i < count; i++) await operation()
  }
  const run = (total: number) => Promise.all(Array.from({ length: CONCURRENCY }, () => worker(total / CONCURRENCY)))
  await run(CONCURRENCY * 100) // JIT and plan caches
  const before = probe?.()
  const started = performance.now()
  await run(OPERATIONS)
  const seconds = (performance.now() - started) / 1000
  const after = probe?.()
  const perOp = (component: 'load generator' | 'postgres') => {
    const start = before?.[component]
    const end = after?.[component]
    return start === undefined || end === undefined ? '    -' : ((end - start) * 1000) / OPERATIONS
  }
  const format = (value: number | string) => (typeof value === 'number' ? value.toFixed(0).padStart(5) : value)
  console.log(
    `  ${label.padEnd(44)} ${String(Math.round(OPERATIONS / seconds)).padStart(6)}/s   node ${format(perOp('load generator'))} µs/op   postgres ${format(perOp('postgres'))} µs/op`,
  )
}

async function postgres() {
  console.log('PostgreSQL (durable), queries from this process over a pool of 16:')
  const cluster = await startBenchCluster(() => {})
  const db = await openDatabase({ databaseUrl: cluster.url })
  const pool = new pg.Pool({ connectionString: cluster.url, max: CONCURRENCY })
  try {
    const id = await seed(db)
    const postmaster = cluster.postmaster
    await time('SELECT 1', postmaster, () => db.query('SELECT 1'))
    await time('full row, as findById reads it', postmaster, () => db.query(FULL_ROW, [id]))
    await time('the 4 columns a status read needs', postmaster, () => db.query(STATUS_ONLY, [id]))
    // A named statement is parsed and planned once per connection instead of on every call.
    await time('full row, named prepared statement', postmaster, () => pool.query({ name: 'full', text: FULL_ROW, values: [id] }))
    await time('4 columns, named prepared statement', postmaster, () => pool.query({ name: 'status', text: STATUS_ONLY, values: [id] }))
  } finally {
    await pool.end()
    await db.close()
    await cluster.stop()
  }
}

await postgres()
