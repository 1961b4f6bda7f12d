import pg from 'pg'
import { inject } from 'vitest'
import type { Database } from '../src/db/port.ts'
import { openPostgres } from '../src/db/postgres.ts'
import { randomToken } from '../src/core/ids.ts'

/** The migrated database global-setup.ts makes on each server for test files to copy. */
export const TEMPLATE_DATABASE = 'till_template'

export type TestDatabase = {
  db: Database
  /** Its URL, for a second instance or a `till` process on the same data. */
  url: string
  /** Empties every table: call it between tests, the database itself is shared by the file. */
  reset(): Promise<void>
  close(): Promise<void>
}

/** This worker's server: VITEST_POOL_ID numbers the workers from 1. */
function serverUrl(): string {
  const servers = inject('databaseServers')
  if (!servers?.length) throw new Error('no database server: this vitest project needs test/global-setup.ts as its globalSetup')
  const worker = Number(process.env.VITEST_POOL_ID ?? '1')
  return servers[(Math.max(worker, 1) - 1) % servers.length] as string
}

/** Runs `work` on a connection of its own to `url`, closed afterwards. */
export async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** A database of its own for one test file: a copy of the migrated template, dropped by close(). */
export async function openTestDatabase(options: { max?: number } = {}): Promise<TestDatabase> {
  const admin = serverUrl()
  const name = `test_${randomToken(8)}`
  await onServer(admin, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`))
  const url = new URL(admin)
  url.pathname = `/${name}`
  const db = await openPostgres({ url: url.href, max: options.max ?? 20 })
  return {
    db,
    url: url.href,
    reset: () =>
      db.exec(
        `TRUNCATE payment_transitions, payments, merchants, api_keys, partners, sandbox_confirmations, apps, buyers,
                  payment_stat_deltas, payment_stats, payment_stats_partner, customer_deltas, customer_members,
                  customer_cells, logo_images, idempotency_keys, webhook_attempts, webhook_deliveries, webhook_events,
                  webhook_endpoints, evm_watch_cursors RESTART IDENTITY CASCADE`,
      ),
    async close() {
      await db.close()
      await onServer(admin, (client) => client.query(`DROP DATABASE ${name} WITH (FORCE)`))
    },
  }
}
