import pg from 'pg'
import type { Database, Queryable, Row, SqlValue } from './port.ts'

export type PostgresOptions = {
  url: string
  /** Pool size; the default suits a small server. */
  max?: number
  /** Sets search_path, which lets tests give each file its own schema. */
  schema?: string
}

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 16,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  })
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {})
  // Fail at start-up, with the driver's own message, rather than on the first request.
  const probe = await pool.connect()
  probe.release()

  const asQueryable = (target: Pick<pg.Pool, 'query'>): Queryable => ({
    async query<T extends Row>(sql: string, params: readonly SqlValue[] = []) {
      const result = await target.query<T>(sql, [...params])
      return result.rows
    },
    async exec(sql: string) {
      // Without parameters node-postgres uses the simple protocol, which accepts several statements.
      await target.query(sql)
    },
  })
  return {
    dialect: 'postgres',
    ...asQueryable(pool),
    async transaction(work) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await work(asQueryable(client))
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {})
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}
