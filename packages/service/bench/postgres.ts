// The PostgreSQL side of the run: a throwaway cluster, and the facts about it that the create figure
// depends on (an fsync per commit is most of what a durable insert costs).
import pg from 'pg'
import { startPostgres, type PostgresCluster } from '../../../scripts/lib/pg-cluster.mjs'

export type PostgresFacts = {
  version: string
  settings: Record<string, string>
}

/** The settings that decide what a commit costs, shown next to the create figure. */
const DURABILITY_SETTINGS = ['fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method', 'shared_buffers'] as const

/**
 * Durable on purpose: fsync and synchronous_commit stay on, as in production, so a create is only
 * counted once its commit is on disk.
 */
export function startBenchCluster(log: (line: string) => void): Promise<PostgresCluster> {
  return startPostgres({ durable: true, log })
}

export async function postgresFacts(url: string): Promise<PostgresFacts> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const version = await client.query<{ server_version: string }>('SHOW server_version')
    const rows = await client.query<{ name: string; setting: string; unit: string | null }>(
      'SELECT name, setting, unit FROM pg_settings WHERE name = ANY ($1::text[])',
      [[...DURABILITY_SETTINGS]],
    )
    const settings: Record<string, string> = {}
    for (const row of rows.rows) settings[row.name] = row.name === 'shared_buffers' ? sharedBuffers(row.setting, row.unit) : row.setting
    return { version: version.rows[0]?.server_version ?? 'unknown', settings }
  } finally {
    await client.end()
  }
}

/** pg_settings gives shared_buffers in 8 kB pages; megabytes read better. */
function sharedBuffers(setting: string, unit: string | null): string {
  const pages = Number(setting)
  if (unit !== '8kB' || !Number.isFinite(pages)) return `${setting}${unit ?? ''}`
  return `${Math.round((pages * 8) / 1024)} MB`
}
