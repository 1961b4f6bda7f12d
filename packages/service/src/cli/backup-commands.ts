// `till backup` and `till restore` (docs/decisions/0035-backups.md). Not admin commands: those open the
// database and migrate it first, where a backup must read a running Till's server as it is, and a restore
// makes the data directory itself, migrated only as far as the backup's schema.
import { z } from 'zod'
import { flag, flagShape } from '../config/flag.ts'
import { commandHelp } from '../config/flag-help.ts'
import { jsonFlag, STORAGE_FLAGS } from '../config/flags.ts'
import { BackupRefused, reachDataDir, restoreBackup, writeBackup } from '../backup/index.ts'
import { parseCommand, UsageError } from './args.ts'

type Runner = (argv: string[], env: Record<string, string | undefined>) => Promise<number>

const EXTERNAL =
  'An external PostgreSQL server (--database-url) is backed up with its own tools (pg_dump -Fc); see docs/operations.md, Backups.'

const file = (what: string) => z.string().min(1, { message: `must name ${what}` })

const BACKUP_FLAGS = {
  'data-dir': { ...STORAGE_FLAGS['data-dir'], help: 'The data directory of `till serve --data-dir` (Till may be running)' },
  out: flag({ type: 'string', value: 'FILE', schema: file('the file to write'), help: 'The backup file to write' }),
  json: jsonFlag('Print the result as one JSON line'),
}

const RESTORE_FLAGS = {
  'data-dir': { ...STORAGE_FLAGS['data-dir'], help: 'The new data directory to make (it must not exist, or be empty)' },
  from: flag({ type: 'string', value: 'FILE', schema: file('a file `till backup` wrote'), help: 'The backup file to restore' }),
  json: jsonFlag('Print the result as one JSON line'),
}

const needsDataDir = (message: string) =>
  [(values: { 'data-dir'?: string | undefined }) => Boolean(values['data-dir']), { message }] as const

const BackupValues = z
  .object(flagShape(BACKUP_FLAGS))
  .refine(...needsDataDir(`say which data directory to back up: --data-dir DIR. ${EXTERNAL}`))
const RestoreValues = z.object(flagShape(RESTORE_FLAGS)).refine(...needsDataDir('say which data directory to make: --data-dir DIR'))

export const BACKUP_HELP = commandHelp({
  usage: 'till backup --data-dir DIR --out FILE [--json]',
  about:
    "Writes a backup of the embedded server's data: every table as of one moment, while Till keeps serving. The file holds " +
    'every secret the database holds (webhook signing secrets, the keys that seal them): keep it as safe as the database. ' +
    EXTERNAL,
  flags: BACKUP_FLAGS,
})

export const RESTORE_HELP = commandHelp({
  usage: 'till restore --data-dir NEW --from FILE [--json]',
  about:
    'Makes a new data directory holding what a backup holds, for `till serve --data-dir NEW`. Nothing is written over: ' +
    'the directory must be new or empty, and a restore that fails leaves none.',
  flags: RESTORE_FLAGS,
})

/** Recoveries of the embedded server go to stderr: stdout may be --json. */
const log = (message: string) => {
  process.stderr.write(`till: ${message}\n`)
}

/** A refusal changed nothing and says what to do: wrong usage, exit 2. */
async function refusalsAsUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof BackupRefused) throw new UsageError(error.message)
    throw error
  }
}

const kilobytes = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en')} kB`

export const BACKUP_COMMANDS: Record<string, Runner> = {
  async backup(argv, env) {
    const values = parseCommand({ argv, command: 'backup', flags: BACKUP_FLAGS, schema: BackupValues, env })
    if (values === 'help') {
      process.stdout.write(BACKUP_HELP)
      return 0
    }
    const summary = await refusalsAsUsage(async () => {
      const server = await reachDataDir(String(values['data-dir']), log)
      try {
        return { ...(await writeBackup(server.url, values.out)), dataDir: server.dir, whileRunning: server.running }
      } finally {
        await server.release()
      }
    })
    process.stdout.write(
      values.json
        ? `${JSON.stringify(summary)}\n`
        : `Backed up ${summary.dataDir} to ${summary.file}: ${summary.rows.toLocaleString('en')} rows in ${summary.tables} tables, ` +
            `schema at ${summary.migration ?? 'none'} (${kilobytes(summary.bytes)}). It holds secrets: keep it as safe as the database.\n`,
    )
    return 0
  },

  async restore(argv, env) {
    const values = parseCommand({ argv, command: 'restore', flags: RESTORE_FLAGS, schema: RestoreValues, env })
    if (values === 'help') {
      process.stdout.write(RESTORE_HELP)
      return 0
    }
    const summary = await refusalsAsUsage(() => restoreBackup({ file: values.from, dataDir: String(values['data-dir']), log }))
    process.stdout.write(
      values.json
        ? `${JSON.stringify(summary)}\n`
        : `Restored ${summary.rows.toLocaleString('en')} rows in ${summary.tables} tables, schema at ${summary.migration ?? 'none'}, ` +
            `into ${summary.dataDir}. Start it with: till serve --data-dir ${summary.dataDir}\n`,
    )
    return 0
  },
}
