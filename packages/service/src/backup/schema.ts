import type pg from 'pg'

/** A table of Till's schema: every column in row-type order, and those an INSERT may set (not generated). */
export type TableShape = { name: string; columns: string[]; writable: string[] }

export type SchemaShape = { tables: TableShape[]; sequences: string[] }

// schema_migrations is the backup's header, not its data: restore writes it by running the migrations.
const TABLES = `
  SELECT c.relname::text AS name,
         array_agg(a.attname::text ORDER BY a.attnum) AS columns,
         coalesce(array_agg(a.attname::text ORDER BY a.attnum) FILTER (WHERE a.attgenerated = ''), '{}') AS writable
    FROM pg_class c
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
   WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
     AND c.relname <> 'schema_migrations'
   GROUP BY c.relname
   ORDER BY c.relname`

const REFERENCES = `
  SELECT child.relname::text AS child, parent.relname::text AS parent
    FROM pg_constraint k
    JOIN pg_class child ON child.oid = k.conrelid
    JOIN pg_class parent ON parent.oid = k.confrelid
   WHERE k.contype = 'f' AND child.relnamespace = current_schema()::regnamespace`

const SEQUENCES = `
  SELECT relname::text AS name FROM pg_class
   WHERE relnamespace = current_schema()::regnamespace AND relkind = 'S'
   ORDER BY relname`

/** Till's tables and sequences in the connection's schema, tables ordered so each follows those it references. */
export async function readSchema(client: pg.ClientBase): Promise<SchemaShape> {
  const tables = (await client.query<TableShape>(TABLES)).rows
  const references = (await client.query<{ child: string; parent: string }>(REFERENCES)).rows
  const sequences = (await client.query<{ name: string }>(SEQUENCES)).rows.map((row) => row.name)
  return { tables: referencedFirst(tables, references), sequences }
}

/**
 * A restore loads with foreign keys unchecked, so this order is not needed for it to work; it makes a backup
 * loadable table by table with the checks on, by other tools too. A cycle, which Till's schema has none of,
 * is broken in name order.
 */
function referencedFirst(tables: TableShape[], references: { child: string; parent: string }[]): TableShape[] {
  const waitingOn = new Map(tables.map((table) => [table.name, new Set<string>()]))
  for (const { child, parent } of references) if (child !== parent && waitingOn.has(parent)) waitingOn.get(child)?.add(parent)
  const ordered: TableShape[] = []
  let left = [...tables]
  while (left.length > 0) {
    const done = new Set(ordered.map((table) => table.name))
    const ready = left.filter((table) => [...(waitingOn.get(table.name) ?? [])].every((parent) => done.has(parent)))
    const next = ready.length > 0 ? ready : left.slice(0, 1)
    ordered.push(...next)
    left = left.filter((table) => !next.includes(table))
  }
  return ordered
}
