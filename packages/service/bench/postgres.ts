// The external PostgreSQL of the run (what `--database-url` points at): a server of the embedded
// binaries that the bench starts itself, durable, in a directory removed afterwards; and the facts about
// a server that the create figure depends on (an fsync per commit is most of what a durable insert costs).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { startEmbeddedServer } from '../src/db/embedded/server.ts'

export type BenchCluster = { url: string; postmaster: number | undefined; stop(): Promise<void> }

export type PostgresFacts = {
  version: string
  settings: Record<string, string>
}

/** The settings that decide what a commit costs, shown next to the create figure. */
const DURABILITY_SETTINGS = ['fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method', 'shared_buffers'] as const

/**
 * Durable on purpose (a data directory): fsync and synchronous_commit stay on, as in production, so a
 * create is only counted once its commit is on disk.
 */
export async function startBenchCluster(log: (line: string) => void): Promise<BenchCluster> {
  const dataDir = await mkdtemp(join(tmpdir(), 'till-bench-'))
  try {
    const server = await startEmbeddedServer({ dataDir, log })
    log(`PostgreSQL ready in ${dataDir}`)
    return {
      url: server.url(),
      postmaster: postmasterPid(join(dataDir, 'postgres')),
      async stop() {
        await server.stop()
        await rm(dataDir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
}

/** The postmaster's pid is the first line of postmaster.pid in the data directory. */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
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

/**
 * The same facts of a server only its till serve can connect to (a generated password): read from the
 * postmaster's command line, where Till passes its settings, and from the program itself.
 */
export function commandLineFacts(postmaster: number): PostgresFacts | undefined {
  try {
    const args = readFileSync(`/proc/${postmaster}/cmdline`, 'utf8').split('\0')
    const settings: Record<string, string> = {}
    args.forEach((arg, index) => {
      const [name, value] = args[index - 1] === '-c' ? arg.split('=', 2) : []
      if (name && value !== undefined && (DURABILITY_SETTINGS as readonly string[]).includes(name)) settings[name] = value
    })
    const version = execFileSync(args[0]!, ['--version'], { encoding: 'utf8' })
      .trim()
      .replace(/^postgres \(PostgreSQL\) /, '')
    return { version, settings }
  } catch {
    return undefined
  }
}
