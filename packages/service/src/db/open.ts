import { migrate } from './migrate.ts'
import { openPGlite } from './pglite.ts'
import type { Database } from './port.ts'
import { openPostgres } from './postgres.ts'

export type StorageConfig = { dataDir?: string | undefined; databaseUrl?: string | undefined }

/** Opens the configured storage and brings its schema up to date. */
export async function openDatabase(config: StorageConfig): Promise<Database> {
  const db = config.databaseUrl
    ? await openPostgres({ url: config.databaseUrl })
    : await openPGlite(config.dataDir ? { dataDir: config.dataDir } : {})
  try {
    await migrate(db)
  } catch (error) {
    await db.close().catch(() => {})
    throw error
  }
  return db
}

export function describeStorage(config: StorageConfig): string {
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl)
    return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`
  }
  return config.dataDir ? `embedded PGlite in ${config.dataDir}` : 'embedded PGlite in memory (nothing is kept)'
}
