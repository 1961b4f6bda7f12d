import type { Database } from '../db/port.ts'
import type { ScrapeSource } from './catalog.ts'

/**
 * What the gauges read at each scrape: the pool's state, and the database-wide webhook backlog, followed
 * transactions and watcher cursors, each through an index. A database that does not answer leaves them as
 * last read: a scrape never fails or waits because of it (`/readyz` is where that shows).
 */
export function databaseSource(db: Database): ScrapeSource {
  // A scrape never queues for a connection the API is waiting for: with the pool full and busy, the
  // database-wide gauges keep their last values.
  const poolFree = () => {
    const stats = db.poolStats?.()
    return !stats || stats.idle > 0 || stats.total < stats.max
  }
  const counts = async (sql: string, values: string[][] = []) => {
    if (!poolFree()) return undefined
    const rows = await db.query<{ key: string; n: string }>(sql, values).catch(() => undefined)
    return rows && Object.fromEntries(rows.map((row) => [row.key, row.n]))
  }
  return {
    pool: () => db.poolStats?.(),
    async backlog() {
      const found = await counts(
        `SELECT s.status AS key, (SELECT count(*) FROM webhook_deliveries d WHERE d.status = s.status) AS n
           FROM (VALUES ('pending'), ('held')) AS s (status)`,
      )
      return found && Object.fromEntries(Object.entries(found).map(([status, n]) => [status, Number(n)]))
    },
    async watches() {
      const found = await counts('SELECT network AS key, count(*) AS n FROM evm_watches GROUP BY network')
      return found && Object.fromEntries(Object.entries(found).map(([network, n]) => [network, Number(n)]))
    },
    async cursors(networks) {
      const found = await counts('SELECT network AS key, next_block AS n FROM evm_watch_cursors WHERE network = ANY ($1)', [networks])
      return found && Object.fromEntries(Object.entries(found).map(([network, next]) => [network, BigInt(next)]))
    },
  }
}
