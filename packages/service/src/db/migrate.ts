import { readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Database } from './port.ts'

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url))
// Any constant works; it only has to be the same for every Till instance sharing a database.
export const MIGRATION_LOCK_KEY = 7_467_114_000

export type Migration = { name: string; sql: string }

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const names = (await readdir(dir)).filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name)).sort()
  return Promise.all(names.map(async (name) => ({ name, sql: await readFile(dir + name, 'utf8') })))
}

/**
 * Applies pending migrations in name order, each in its own transaction. The advisory lock lets several
 * instances start against one PostgreSQL at once without applying a file twice.
 */
export async function migrate(db: Database, migrations?: Migration[]): Promise<string[]> {
  const files = migrations ?? (await loadMigrations())
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`)
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY])
    const applied = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((row) => row.name))
    const pending = files.filter((file) => !applied.has(file.name))
    for (const file of pending) {
      await tx.exec(file.sql)
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file.name])
    }
    return pending.map((file) => file.name)
  })
}
