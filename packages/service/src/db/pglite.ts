import { PGlite } from '@electric-sql/pglite'
import { lockDataDir } from './data-dir-lock.ts'
import type { Database, Queryable, Row, SqlValue } from './port.ts'

export type PGliteOptions = {
  /** A directory for durable data; in memory when omitted. */
  dataDir?: string
}

export async function openPGlite(options: PGliteOptions = {}): Promise<Database> {
  const unlock = options.dataDir ? await lockDataDir(options.dataDir) : async () => {}
  let db: PGlite
  try {
    db = options.dataDir ? await PGlite.create(options.dataDir) : await PGlite.create()
  } catch (error) {
    await unlock()
    throw error
  }
  const asQueryable = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T extends Row>(sql: string, params: readonly SqlValue[] = []) {
      const result = await target.query<T>(sql, [...params])
      return result.rows
    },
    async exec(sql: string) {
      await target.exec(sql)
    },
  })
  return {
    dialect: 'pglite',
    ...asQueryable(db),
    // PGlite is one connection: its transaction() holds the connection, which serializes writers.
    transaction: (work) => db.transaction((tx) => work(asQueryable(tx))),
    async close() {
      await db.close()
      await unlock()
    },
  }
}
