import { existsSync } from 'node:fs'
import { mkdir, readdir, rename, rm } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { startEmbeddedServer } from '../db/embedded/server.ts'
import { loadMigrations, type Migration, migrate } from '../db/migrate.ts'
import { openPostgres } from '../db/postgres.ts'
import { type BackupHeader, BackupRefused, parseHeader, readLines } from './format.ts'
import { loadRows } from './load.ts'

export type RestoreSummary = { dataDir: string; migration: string | null; tables: number; rows: number }

/**
 * Makes `dataDir` a Till data directory holding what the backup `file` holds. It is built beside its name
 * and renamed into place only once loaded, so a restore that fails (a damaged file, a full disk) leaves
 * nothing under the name; the directory must be new or empty, so no data is ever overwritten.
 */
export async function restoreBackup(input: { file: string; dataDir: string; log: (message: string) => void }): Promise<RestoreSummary> {
  const dir = resolve(input.dataDir)
  const file = resolve(input.file)
  await refuseUsedDir(dir)
  if (!existsSync(file)) throw new BackupRefused(`${file} does not exist: --from names a file \`till backup\` wrote.`)
  const header = await readHeader(file)
  const migrations = await migrationsOf(header, file)
  const building = `${dir}.restoring-${process.pid}`
  await rm(building, { recursive: true, force: true })
  await mkdir(dirname(dir), { recursive: true })
  try {
    // Initialised as `till migrate --data-dir` would, but migrated only as far as the backup's schema: its
    // rows fit that one. The next `till serve` migrates the rest, as it would have on the original.
    const server = await startEmbeddedServer({ dataDir: building, log: input.log })
    let rows: number
    try {
      const db = await openPostgres({ url: server.url(), max: 1, queryTimeoutMs: 0 })
      try {
        await migrate(db, migrations)
      } finally {
        await db.close()
      }
      rows = await loadRows(server.url(), file, header)
    } finally {
      await server.stop()
    }
    await rename(building, dir)
    return { dataDir: dir, migration: header.migrations.at(-1) ?? null, tables: header.tables.length, rows }
  } catch (error) {
    await rm(building, { recursive: true, force: true })
    throw error
  }
}

async function refuseUsedDir(dir: string): Promise<void> {
  let entries: string[]
  try {
    entries = await readdir(dir)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return
    if (code === 'ENOTDIR') throw new BackupRefused(`${dir} is a file: --data-dir names the new data directory to make.`)
    throw error
  }
  if (entries.length === 0) return
  const what = existsSync(join(dir, 'postgres', 'PG_VERSION')) ? 'already holds a Till database' : 'is not empty'
  throw new BackupRefused(
    `${dir} ${what}, and a restore never writes over data. Restore into a new or empty directory ` +
      `(--data-dir ${dir}-restored); to replace this one, stop Till, move it aside (mv ${dir} ${dir}.old), then restore.`,
  )
}

/** The first line, checked before anything is made. */
async function readHeader(file: string): Promise<BackupHeader> {
  try {
    for await (const first of readLines(file)) return parseHeader(first, file)
  } catch (error) {
    const code = String((error as NodeJS.ErrnoException).code ?? '')
    if (code === 'Z_BUF_ERROR') throw new Error(`${file} is incomplete (${(error as Error).message}): nothing was restored.`)
    if (code.startsWith('Z_'))
      throw new BackupRefused(`${file} is not a Till backup (made by \`till backup\`): ${(error as Error).message}.`)
    throw error
  }
  return parseHeader(undefined, file)
}

/** This Till's migrations up to the backup's schema, which must be where this Till's own line of them passed. */
async function migrationsOf(header: BackupHeader, file: string): Promise<Migration[]> {
  const known = await loadMigrations()
  const names = new Set(known.map((migration) => migration.name))
  const unknown = header.migrations.filter((name) => !names.has(name))
  if (unknown.length > 0) {
    throw new BackupRefused(
      `${file} was made by a newer Till: its schema includes ${unknown.join(', ')}, which this Till (schema up to ` +
        `${known.at(-1)?.name ?? 'none'}) does not know. Restore it with the Till that made it, or a newer one.`,
    )
  }
  const upTo = known.slice(0, header.migrations.length)
  if (upTo.some((migration, index) => migration.name !== header.migrations[index])) {
    throw new BackupRefused(`${file} records migrations that are not in this Till's order: it was not made by \`till backup\` of Till.`)
  }
  return upTo
}
