import { DEFAULT_API_VERSION, type ApiVersion } from '@till/contract'
import { pino } from 'pino'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { createApp, type AppConfig, type AppDeps } from '../src/app.ts'
import type { Database } from '../src/db/port.ts'
import type { Clock } from '../src/core/clock.ts'
import { randomToken } from '../src/core/ids.ts'
import { accountStore } from '../src/accounts/store.ts'
import { openTestDatabase, type TestDatabase } from './database.ts'

export { openTestDatabase, type TestDatabase }

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

export type TestAppOptions = {
  clock?: Clock
  config?: Partial<AppConfig>
  outbound?: AppDeps['outbound']
  evm?: AppDeps['evm']
  metrics?: AppDeps['metrics']
  replica?: AppDeps['replica']
}

export async function testApp(db: Database, options: TestAppOptions = {}) {
  const app = await createApp({
    db,
    ...(options.outbound ? { outbound: options.outbound } : {}),
    ...(options.evm ? { evm: options.evm } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.replica ? { replica: options.replica } : {}),
    config: {
      sandbox: false,
      paymentTtlSeconds: 900,
      pollInMs: 2_000,
      checkoutUrl: () => CHECKOUT_URL,
      authCacheTtlMs: 0,
      ...options.config,
      // Jobs run only when a test drives them, or turns one on by name.
      jobs: {
        expirySweepMs: 0,
        webhookDispatchMs: 0,
        statsCompactionMs: 0,
        sandboxConfirmationsMs: 0,
        retentionMs: 0,
        replicaCheckMs: 0,
        ...options.config?.jobs,
      },
    },
  })
  await app.ready()
  return app
}

export type Account = { partnerId: string; merchantId: string; apiKey: string; headers: Record<string, string> }

/** A partner with an API key and a merchant, and the headers of a merchant checkout API call. */
export async function createAccount(db: Database, options: { sandbox?: boolean; version?: ApiVersion; now?: Date } = {}): Promise<Account> {
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
export function useTestApp(options: TestAppOptions = {}): TestAppContext {
  const context = useTestDatabase() as TestAppContext
  beforeAll(async () => {
    context.app = await testApp(context.tdb.db, options)
  })
  afterAll(() => context.app?.close())
  return context
}

/** One database for the file, every table emptied before each test; filled in by the time tests run. */
export function useTestDatabase(): { tdb: TestDatabase } {
  const context = {} as { tdb: TestDatabase }
  beforeAll(async () => {
    context.tdb = await openTestDatabase()
  })
  afterAll(() => context.tdb?.close())
  beforeEach(() => context.tdb.reset())
  return context
}
