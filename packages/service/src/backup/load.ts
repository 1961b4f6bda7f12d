import pg from 'pg'
import { type BackupHeader, BodyLine, quoteIdent, readLines, type SequenceValue } from './format.ts'
import { readSchema, type TableShape } from './schema.ts'

/** The file is not what `till backup` wrote, whole: the restore stops and nothing of it stays. */
class DamagedBackup extends Error {
  override name = 'DamagedBackup'
}

/**
 * Loads the backup's rows into a database migrated to its schema, in one transaction: every row or none.
 * Returns how many rows were loaded.
 */
export async function loadRows(url: string, file: string, header: BackupHeader): Promise<number> {
  const client = new pg.Client({ connectionString: url, application_name: 'till restore' })
  client.on('error', () => {})
  await client.connect()
  try {
    await client.query('BEGIN')
    // The rows go in as they were read. No trigger fires: payments' status guard would refuse a terminal
    // payment's history, and the stats, buyers and webhook outbox triggers would count or announce again
    // what the copied tables already hold. Foreign keys go unchecked: the rows were consistent when read.
    await client.query('SET LOCAL session_replication_role = replica')
    const tables = await matchingTables(client, header)
    // A migration may have seeded a row the backup holds too.
    if (tables.size > 0) await client.query(`TRUNCATE ${[...tables.keys()].map(quoteIdent).join(', ')}`)
    const counts = new Map<string, number>()
    let ended = false
    let isHeader = true
    for await (const text of readBody(file)) {
      if (isHeader) {
        isHeader = false
        continue
      }
      if (ended) throw new DamagedBackup('it goes on after its last line')
      const body = parseBody(text)
      if ('table' in body) {
        const table = tables.get(body.table)
        if (!table) throw new DamagedBackup(`it has rows of ${body.table}, a table its header does not list`)
        await insertRows(client, table, body.rows)
        counts.set(table.name, (counts.get(table.name) ?? 0) + body.rows.length)
      } else if ('sequences' in body) {
        await setSequences(client, header, body.sequences)
      } else {
        for (const { name } of header.tables) {
          const expected = body.end.rows[name] ?? 0
          if ((counts.get(name) ?? 0) !== expected)
            throw new DamagedBackup(`${name} should have ${expected} rows, not ${counts.get(name) ?? 0}`)
        }
        ended = true
      }
    }
    if (!ended) throw new DamagedBackup('it ends before its last line')
    await client.query('COMMIT')
    // Fresh statistics, so the first queries are planned as on the original.
    await client.query('ANALYZE')
    return [...counts.values()].reduce((sum, count) => sum + count, 0)
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    if (error instanceof DamagedBackup) throw new Error(`${file} is damaged or incomplete (${error.message}): nothing was restored.`)
    throw error
  } finally {
    await client.end().catch(() => {})
  }
}

/** The file's lines; an error unpacking it (a truncated or corrupted file) is a damaged backup. */
async function* readBody(file: string): AsyncGenerator<string> {
  try {
    yield* readLines(file)
  } catch (error) {
    if (String((error as NodeJS.ErrnoException).code ?? '').startsWith('Z_')) throw new DamagedBackup((error as Error).message)
    throw error
  }
}

function parseBody(text: string): BodyLine {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new DamagedBackup('a line is not JSON')
  }
  const body = BodyLine.safeParse(value)
  if (!body.success) throw new DamagedBackup('a line is neither rows, sequences nor its end')
  return body.data
}

/**
 * The tables this Till made at the backup's migrations, which must be the backup's own, column for column
 * in row-type order: each row's text is read back as that type.
 */
async function matchingTables(client: pg.Client, header: BackupHeader): Promise<Map<string, TableShape>> {
  const schema = await readSchema(client)
  const here = new Map(schema.tables.map((table) => [table.name, table]))
  const theirs = new Set(header.tables.map((table) => table.name))
  const extra = schema.tables.filter((table) => !theirs.has(table.name)).map((table) => table.name)
  if (extra.length > 0) throw new DamagedBackup(`it lacks the tables ${extra.join(', ')}`)
  for (const table of header.tables) {
    const columns = here.get(table.name)?.columns
    if (!columns) throw new DamagedBackup(`it has a table ${table.name} this schema does not`)
    if (columns.join(',') !== table.columns.join(',')) {
      throw new DamagedBackup(`its table ${table.name} has the columns (${table.columns.join(', ')}), not (${columns.join(', ')})`)
    }
  }
  const sequences = new Set(schema.sequences)
  if (header.sequences.length !== sequences.size || header.sequences.some((name) => !sequences.has(name))) {
    throw new DamagedBackup(`its sequences (${header.sequences.join(', ')}) are not this schema's (${schema.sequences.join(', ')})`)
  }
  return here
}

/** Generated columns are left out: PostgreSQL computes them again, from the same values. */
async function insertRows(client: pg.Client, table: TableShape, rows: string[]): Promise<void> {
  const columns = table.writable.map(quoteIdent).join(', ')
  const name = quoteIdent(table.name)
  await client.query(`INSERT INTO ${name} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM unnest($1::${name}[])`, [rows])
}

async function setSequences(client: pg.Client, header: BackupHeader, values: SequenceValue[]): Promise<void> {
  for (const { name, lastValue, isCalled } of values) {
    if (!header.sequences.includes(name)) throw new DamagedBackup(`it sets ${name}, a sequence its header does not list`)
    await client.query('SELECT setval(to_regclass(quote_ident($1)), $2::bigint, $3)', [name, lastValue, isCalled])
  }
}
