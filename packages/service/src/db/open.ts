import { startEmbeddedServer, type EmbeddedServer } from './embedded/server.ts'
import { migrate } from './migrate.ts'
import type { Database } from './port.ts'
import { openPostgres, type OutageEvent, type PostgresOptions } from './postgres.ts'

/**
 * Where Till keeps its data: an embedded PostgreSQL server in a temporary directory (neither field), the
 * same server keeping its data in `dataDir`, or an external server at `databaseUrl`.
 */
export type StorageConfig = { dataDir?: string | undefined; databaseUrl?: string | undefined }

export type OpenedDatabase = Database & {
  /**
   * Settles with a reason if the embedded server stops on its own and cannot be restarted; never for an
   * external server, whose outages Till waits out (requests answer 503 meanwhile).
   */
  serverExited: Promise<string>
}

/**
 * Opens the configured storage, starting the embedded server if that is the choice, and migrates it.
 * `tuning` lifts the statement deadline for bulk work (the listing bench's seed).
 */
export async function openDatabase(
  config: StorageConfig,
  log?: (message: string) => void,
  tuning: Pick<PostgresOptions, 'queryTimeoutMs'> = {},
): Promise<OpenedDatabase> {
  const server: EmbeddedServer | undefined = config.databaseUrl
    ? undefined
    : await startEmbeddedServer({ dataDir: config.dataDir, ...(log ? { log } : {}) })
  const url = server?.url() ?? String(config.databaseUrl)
  let db: Database
  try {
    await migrateAlone(url)
    db = await openPostgres({ url, ...tuning, ...(log ? { onOutage: logOutage(log) } : {}) })
  } catch (error) {
    await server?.stop()
    throw error
  }
  return {
    ...db,
    serverExited: server?.exited ?? new Promise<string>(() => {}),
    async close() {
      await db.close()
      await server?.stop()
    },
  }
}

/**
 * Migrates on a connection of its own, closed once done: the backend that ran the migrations' DDL keeps
 * the catalog it read in its caches (about 12 MB), which no request would use again.
 */
async function migrateAlone(url: string): Promise<void> {
  const db = await openPostgres({ url, max: 1 })
  try {
    await migrate(db)
  } finally {
    await db.close()
  }
}

export function describeStorage(config: StorageConfig): string {
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl)
    return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`
  }
  return config.dataDir
    ? `embedded PostgreSQL, data in ${config.dataDir}`
    : 'embedded PostgreSQL, in a temporary directory (nothing is kept)'
}

/** One line when the database stops answering and one when it is back; requests and jobs say nothing more. */
function logOutage(log: (message: string) => void) {
  return (event: OutageEvent) => {
    if (event.state === 'down') {
      const reason = event.error instanceof Error ? event.error.message : String(event.error)
      log(`the database does not answer (${reason}): requests answer 503 and background jobs wait until it is back`)
    } else {
      log(`the database answers again, after ${(event.downForMs / 1000).toFixed(1)} s`)
    }
  }
}
