import { createWriteStream, existsSync, statSync } from 'node:fs'
import { open, rename, rm, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import pg from 'pg'
import { BACKUP_FORMAT, BackupRefused, type BodyLine, FORMAT_VERSION, type BackupHeader, quoteIdent } from './format.ts'
import { readSchema } from './schema.ts'
import { MIGRATION_LOCK_KEY } from '../db/migrate.ts'

// The migrations' advisory lock, held shared for the whole backup: a Till starting meanwhile waits to
// migrate until the backup is done, and a backup waits for a migration under way, so the tables read are
// always those of the migrations recorded.
// Rows fetched a round trip; a logo's row is tens of kilobytes, so this stays a few megabytes at most.
const FETCH_ROWS = 200
// A line is one JSON value the restore holds whole: a batch closes once its rows reach this size.
const LINE_CHARS = 1 << 20

export type BackupSummary = { file: string; migration: string | null; tables: number; rows: number; bytes: number }

/**
 * Writes a backup of the database at `url` to `file`, as of one moment: everything is read in a single
 * REPEATABLE READ transaction, so writes committed meanwhile are in none of it and Till keeps serving. The
 * file is written beside its name and renamed into place once complete and on disk: whatever carries the
 * name is a whole backup. It is readable by its owner alone; it holds every secret the database holds.
 */
export async function writeBackup(url: string, outFile: string): Promise<BackupSummary> {
  const file = resolve(outFile)
  if (!existsSync(dirname(file))) throw new BackupRefused(`${dirname(file)} does not exist: create it, or write the backup elsewhere.`)
  if (existsSync(file) && statSync(file).isDirectory()) throw new BackupRefused(`${file} is a directory: --out names the file to write.`)
  // Its own name per process: two backups to one name never write into each other's file.
  const partial = `${file}.${process.pid}.tmp`
  const client = new pg.Client({ connectionString: url, application_name: 'till backup' })
  // A server going away fails the query in flight; the event must not end the process on its own.
  client.on('error', () => {})
  await client.connect()
  const counts: Record<string, number> = {}
  let header: BackupHeader | undefined
  try {
    await client.query('SELECT pg_advisory_lock_shared($1)', [MIGRATION_LOCK_KEY])
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    const lines = backupLines(client, counts, (written) => {
      header = written
    })
    await pipeline(Readable.from(lines), createGzip(), createWriteStream(partial, { flags: 'wx', mode: 0o600 }))
    await onDisk(partial)
    await client.query('COMMIT')
    await rename(partial, file)
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  } finally {
    // Ends the session, and with it the shared lock.
    await client.end().catch(() => {})
  }
  return {
    file,
    migration: header?.migrations.at(-1) ?? null,
    tables: header?.tables.length ?? 0,
    rows: Object.values(counts).reduce((sum, count) => sum + count, 0),
    bytes: (await stat(file)).size,
  }
}

/** Before the rename: a crash right after it must not leave a whole name on a file not yet written out. */
async function onDisk(file: string): Promise<void> {
  const handle = await open(file, 'r+')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

const line = (value: BackupHeader | BodyLine) => `${JSON.stringify(value)}\n`

async function* backupLines(
  client: pg.Client,
  counts: Record<string, number>,
  onHeader: (header: BackupHeader) => void,
): AsyncGenerator<string> {
  // The transaction's first statement takes its snapshot: everything below is read as of this moment.
  const [found] = (await client.query<{ migrated: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS migrated")).rows
  if (!found?.migrated)
    throw new BackupRefused('The database holds no Till schema yet (no migration ran on it): there is nothing to back up.')
  const migrations = (await client.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).rows.map((row) => row.name)
  const schema = await readSchema(client)
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    version: FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    migrations,
    tables: schema.tables.map(({ name, columns }) => ({ name, columns })),
    sequences: schema.sequences,
  }
  onHeader(header)
  yield line(header)

  for (const { name } of schema.tables) {
    counts[name] = 0
    // Each row in the text form of the table's row type: exact for every column type, and read back by a
    // cast. The alias cannot be a column's name, which would take precedence over the row.
    await client.query(
      `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT "till backup row"::text AS row FROM ${quoteIdent(name)} AS "till backup row"`,
    )
    for (;;) {
      const fetched = (await client.query<{ row: string }>(`FETCH ${FETCH_ROWS} FROM backup_rows`)).rows
      if (fetched.length === 0) break
      counts[name] += fetched.length
      let batch: string[] = []
      let size = 0
      for (const { row } of fetched) {
        batch.push(row)
        size += row.length
        if (size >= LINE_CHARS) {
          yield line({ table: name, rows: batch })
          batch = []
          size = 0
        }
      }
      if (batch.length > 0) yield line({ table: name, rows: batch })
    }
    await client.query('CLOSE backup_rows')
  }

  // Read after the rows: a sequence only moves forward, so it is at or past every id the rows hold.
  const sequences = []
  for (const name of schema.sequences) {
    const [value] = (
      await client.query<{ lastValue: string; isCalled: boolean }>(
        `SELECT last_value::text AS "lastValue", is_called AS "isCalled" FROM ${quoteIdent(name)}`,
      )
    ).rows
    if (value) sequences.push({ name, ...value })
  }
  yield line({ sequences })
  yield line({ end: { rows: counts } })
}
