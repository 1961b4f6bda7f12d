import { DEFAULT_API_VERSION, type ApiVersion } from '@till/contract'
import pg from 'pg'
import { pino } from 'pino'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, inject } from 'vitest'
import { createApp, type AppConfig } from '../src/app.ts'
import { migrate } from '../src/db/migrate.ts'
import { openPGlite } from '../src/db/pglite.ts'
import type { Database } from '../src/db/port.ts'
import { openPostgres } from '../src/db/postgres.ts'
import type { Clock } from '../src/domain/clock.ts'
import { randomToken } from '../src/domain/ids.ts'
import { accountStore } from '../src/store/accounts.ts'

export type TestDatabase = {
  db: Database
  kind: 'pglite' | 'postgres'
  /** Empties every table: call it between tests, the database itself is shared by the file. */
  reset(): Promise<void>
  close(): Promise<void>
}

/**
 * One database per test file: a fresh schema on the real PostgreSQL of the `service-pg` project, or an
 * in-memory PGlite (which takes seconds to open, hence once per file, not per test).
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const url = inject('databaseUrl')
  let db: Database
  let drop = async () => {}
  if (url) {
    const schema = `test_${randomToken(8)}`
    await withClient(url, (client) => client.query(`CREATE SCHEMA ${schema}`))
    db = await openPostgres({ url, schema, max: 20 })
    drop = async () => {
      await withClient(url, (client) => client.query(`DROP SCHEMA ${schema} CASCADE`))
    }
  } else {
    db = await openPGlite()
  }
  await migrate(db)
  return {
    db,
    kind: db.dialect,
    reset: () => db.exec('TRUNCATE payment_transitions, payments, merchants, api_keys, partners RESTART IDENTITY CASCADE'),
    async close() {
      await db.close()
      await drop()
    },
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** A clock tests move by hand. */
export function testClock(start = new Date('2026-11-21T12:00:00.000Z')): Clock & { advance(ms: number): void; set(date: Date): void } {
  let now = start.getTime()
  return {
    now: () => new Date(now),
    advance(ms) {
      now += ms
    },
    set(date) {
      now = date.getTime()
    },
  }
}

export const CHECKOUT_URL = 'https://checkout.till.test/pay'

export async function testApp(db: Database, options: { clock?: Clock; config?: Partial<AppConfig> } = {}) {
  const app = await createApp({
    db,
    ...(options.clock ? { clock: options.clock } : {}),
    config: {
      sandbox: false,
      paymentTtlSeconds: 900,
      pollInMs: 2_000,
      checkoutUrl: () => CHECKOUT_URL,
      authCacheTtlMs: 0,
      expirySweepMs: 0,
      ...options.config,
    },
  })
  await app.ready()
  return app
}

export type Account = { partnerId: string; merchantId: string; apiKey: string; headers: Record<string, string> }

/** A partner with an API key and a merchant, and the headers of a merchant checkout API call. */
export async function createAccount(
  db: Database,
  options: { sandbox?: boolean; version?: ApiVersion; now?: Date } = {},
): Promise<Account> {
  const accounts = accountStore(db)
  const now = options.now ?? new Date()
  const partner = await accounts.createPartner({
    name: 'Partner',
    pinnedVersion: options.version ?? DEFAULT_API_VERSION,
    sandbox: options.sandbox ?? false,
    now,
  })
  const key = await accounts.createApiKey({ partnerId: partner.id, mode: options.sandbox ? 'test' : 'live', now })
  const merchant = await accounts.createMerchant({ partnerId: partner.id, name: 'Shop', email: 'shop@example.com', now })
  return {
    partnerId: partner.id,
    merchantId: merchant.id,
    apiKey: key.key,
    headers: { 'api-key': key.key, 'merchant-id': merchant.id },
  }
}

export const createBody = (overrides: Record<string, unknown> = {}) => ({
  amount: { unit: 'iso4217/EUR', value: '1999' },
  referenceId: `order-${randomToken(6)}`,
  checkout: { successUrl: 'https://shop.example/paid?order=1', errorUrl: 'https://shop.example/failed' },
  ...overrides,
})

/** A logger that says nothing, for components tested without an app. */
export const silentLog = pino({ level: 'silent' })

export type TestAppContext = { tdb: TestDatabase; app: FastifyInstance }

/**
 * The usual fixture of a route test: one database and one app for the file, every table emptied before each
 * test. Returns a context whose fields are filled in by the time tests run.
 */
export function useTestApp(options: { clock?: Clock; config?: Partial<AppConfig> } = {}): TestAppContext {
  const context = {} as TestAppContext
  beforeAll(async () => {
    context.tdb = await openTestDatabase()
    context.app = await testApp(context.tdb.db, options)
  })
  afterAll(async () => {
    await context.app?.close()
    await context.tdb?.close()
  })
  beforeEach(() => context.tdb.reset())
  return context
}
