// Before any timing: the rollups the bench built must give what a recount of the payments gives, or the
// figures measure something wrong.
import type { Database } from '../../src/db/port.ts'
import { readStats } from '../../src/listing/stats.ts'

export async function checkRollups(db: Database, partnerId: string, log: (line: string) => void) {
  const fromRollups = await readStats(db, { partnerId, statuses: ['succeeded', 'failed', 'expired', 'pending', 'processing'] })
  const recount = await db.query<{ currency: string; n: string; minor: string }>(
    `SELECT currency, count(*)::text AS n, coalesce(sum(amount_minor) FILTER (WHERE status = 'succeeded'), 0)::text AS minor
       FROM payments WHERE partner_id = $1 GROUP BY 1 ORDER BY 1`,
    [partnerId],
  )
  const transactions = recount.reduce((sum, row) => sum + BigInt(row.n), 0n)
  const revenue = recount.map((row) => ({ currency: row.currency, minor: BigInt(row.minor) }))
  if (fromRollups.transactions !== transactions || JSON.stringify(fromRollups.revenue, big) !== JSON.stringify(revenue, big)) {
    throw new Error(
      `the rollups disagree with a recount: ${JSON.stringify(fromRollups, big)} vs ${JSON.stringify({ transactions, revenue }, big)}`,
    )
  }
  const [buyers] = await db.query<{ n: string }>(
    'SELECT count(DISTINCT buyer_key)::text AS n FROM payments WHERE partner_id = $1 AND buyer_key IS NOT NULL',
    [partnerId],
  )
  const fromSets = await readStats(db, { partnerId })
  if (fromSets.customers !== BigInt(buyers?.n ?? -1)) {
    throw new Error(`the customer sets disagree with a recount: ${fromSets.customers} vs ${buyers?.n}`)
  }
  log(`rollups and customer sets equal a recount: ${transactions} payments, ${fromSets.customers} customers`)
}

const big = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)
