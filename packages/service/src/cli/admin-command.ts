// How an operator command is declared and run: its flags with the database flags, --json and --help.
import { z } from 'zod'
import { envVariables, flag, flagShape, type FlagShape, type FlagTable } from '../config/flag.ts'
import { commandHelp } from '../config/flag-help.ts'
import { jsonFlag, ONE_STORAGE_MESSAGE, oneStorage, STORAGE_FLAGS } from '../config/flags.ts'
import { openDatabase, type StorageConfig } from '../db/open.ts'
import { type AuditAction, auditLog } from '../audit/index.ts'
import type { Database, Queryable } from '../db/port.ts'
import { parseCommand } from './args.ts'

/** What every admin command takes besides its own flags: the database to change, and --json. */
const COMMON_FLAGS = {
  'data-dir': { ...STORAGE_FLAGS['data-dir'], help: 'The data directory given to `till serve --data-dir`' },
  'database-url': { ...STORAGE_FLAGS['database-url'], help: 'Or the external PostgreSQL server `till serve` uses' },
  json: jsonFlag('Print the result as one JSON line'),
}

const storageVariables = Object.values(envVariables(STORAGE_FLAGS)).join(' / ')

const CommonValues = z
  .object(flagShape(COMMON_FLAGS))
  .refine(oneStorage, ONE_STORAGE_MESSAGE)
  // Changing a throwaway database, gone when this command exits, would only look like it worked.
  .refine((values) => Boolean(values['data-dir'] || values['database-url']), {
    message: `say which database to change: --data-dir DIR (the embedded server's data) or --database-url URL (or ${storageVariables})`,
  })

/** Parsed and ready to run: the database to open, and what to do with it (the text to print). */
type Invocation = { storage: StorageConfig; run(db: Database): Promise<string> }

export type Command = {
  help: string
  /** Parses the command line; 'help' when --help was asked for. */
  prepare(command: string, argv: string[], env: Record<string, string | undefined>): Invocation | 'help'
}

type Values<T extends FlagTable> = z.output<z.ZodObject<FlagShape<T>>> & z.output<typeof CommonValues>

/** A command's own flags and what it does; the database flags, --json and --help come with it. */
export function adminCommand<T extends FlagTable, R extends Record<string, unknown>>(spec: {
  usage: string
  about: string
  flags: T
  run(db: Database, values: Values<T>): Promise<R>
  say(result: R): string
}): Command {
  const flags = { ...spec.flags, ...COMMON_FLAGS }
  const schema = z.object(flagShape(spec.flags)).and(CommonValues)
  return {
    help: commandHelp({ usage: spec.usage, about: spec.about, flags }),
    prepare(command, argv, env) {
      const values = parseCommand({ argv, command, flags, schema, env })
      if (values === 'help') return 'help'
      return {
        storage: { dataDir: values['data-dir'], databaseUrl: values['database-url'] },
        async run(db) {
          const result = await spec.run(db, values)
          return values.json ? JSON.stringify(result) : spec.say(result)
        },
      }
    },
  }
}

export const name = z.string().trim().min(1, { message: 'must not be empty' }).max(100)
export const id = z.string().min(1, { message: 'is required' })
export const partnerFlag = (help: string) => flag({ type: 'string', value: 'ID', schema: id, help })
export const labelFlag = (help: string, schema: z.ZodType<string | undefined>) => flag({ type: 'string', value: 'TEXT', schema, help })

export async function runAdminCommand(
  command: string,
  spec: Command,
  argv: string[],
  env: Record<string, string | undefined>,
): Promise<number> {
  const invocation = spec.prepare(command, argv, env)
  if (invocation === 'help') {
    process.stdout.write(spec.help)
    return 0
  }
  // Recoveries of the embedded server (an orphan stopped, a stale lock cleared) go to stderr: stdout may be --json.
  const db = await openDatabase(invocation.storage, (message) => process.stderr.write(`till: ${message}\n`))
  try {
    process.stdout.write(`${await invocation.run(db)}\n`)
    return 0
  } finally {
    await db.close()
  }
}

/** A change made with `till` on the database directly, in the partner's audit log (issue 25, point 4). */
export function fromCommandLine(
  db: Queryable,
  entry: { partnerId: string; action: AuditAction; target: string; at: Date; details?: Record<string, unknown> },
): Promise<void> {
  return auditLog(db).record({ ...entry, userId: null, actor: 'command line', address: null })
}
