import { createReadStream } from 'node:fs'
import { createGunzip } from 'node:zlib'
import { z } from 'zod'

/**
 * A backup file (docs/decisions/0035-backups.md): gzip'd JSON lines. The first line is the header, then
 * each table's rows in batches, each row as PostgreSQL's own text form of the table's row type, then the
 * sequences, and last the row count of every table: a file without that last line is incomplete.
 */
export const BACKUP_FORMAT = 'till-backup'
/** Raised when a change means an older Till could not read the file. */
export const FORMAT_VERSION = 1

/** Nothing was changed: the operator gave something Till will not restore, and is told what to do. */
export class BackupRefused extends Error {
  override name = 'BackupRefused'
}

/** A table as the backup saw it: its columns in the order of its row type, which the rows' text follows. */
const TableEntry = z.object({ name: z.string(), columns: z.array(z.string()) })

export const BackupHeader = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(FORMAT_VERSION),
  createdAt: z.string(),
  /** The rows of schema_migrations: the schema the rows fit. */
  migrations: z.array(z.string()),
  /** In an order where every table comes after those it references. */
  tables: z.array(TableEntry),
  sequences: z.array(z.string()),
})
export type BackupHeader = z.infer<typeof BackupHeader>

export const SequenceValue = z.object({ name: z.string(), lastValue: z.string().regex(/^-?\d+$/), isCalled: z.boolean() })
export type SequenceValue = z.infer<typeof SequenceValue>

/** Every line after the header is one of these. */
export const BodyLine = z.union([
  z.object({ table: z.string(), rows: z.array(z.string()) }),
  z.object({ sequences: z.array(SequenceValue) }),
  z.object({ end: z.object({ rows: z.record(z.string(), z.number().int().min(0)) }) }),
])
export type BodyLine = z.infer<typeof BodyLine>

/**
 * The header, checked before anything is created. A file that is not a Till backup, or of a later format,
 * is refused with what to do about it.
 */
export function parseHeader(line: string | undefined, file: string): BackupHeader {
  let value: unknown
  try {
    value = JSON.parse(line ?? '')
  } catch {
    throw new BackupRefused(`${file} is not a Till backup (made by \`till backup\`): its first line is not its header.`)
  }
  const format = z.object({ format: z.literal(BACKUP_FORMAT), version: z.number() }).safeParse(value)
  if (!format.success) throw new BackupRefused(`${file} is not a Till backup (made by \`till backup\`).`)
  if (format.data.version > FORMAT_VERSION) {
    throw new BackupRefused(
      `${file} was written by a newer Till (backup format ${format.data.version}; this Till reads ${FORMAT_VERSION}). ` +
        'Restore it with that Till or a newer one.',
    )
  }
  const header = BackupHeader.safeParse(value)
  if (!header.success) throw new BackupRefused(`${file} has a damaged header: ${header.error.issues[0]?.message ?? ''}`)
  return header.data
}

/**
 * The file's lines, read as they are unpacked. A truncated or corrupted file ends in an error from gunzip
 * (its length and CRC are checked at the end), never in fewer lines without one.
 */
export async function* readLines(file: string): AsyncGenerator<string> {
  const input = createReadStream(file)
  const gunzip = createGunzip()
  input.on('error', (error) => gunzip.destroy(error))
  input.pipe(gunzip)
  gunzip.setEncoding('utf8')
  let pending = ''
  try {
    for await (const chunk of gunzip as AsyncIterable<string>) {
      pending += chunk
      let newline = pending.indexOf('\n')
      while (newline >= 0) {
        yield pending.slice(0, newline)
        pending = pending.slice(newline + 1)
        newline = pending.indexOf('\n')
      }
    }
    if (pending) yield pending
  } finally {
    input.destroy()
    gunzip.destroy()
  }
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`
