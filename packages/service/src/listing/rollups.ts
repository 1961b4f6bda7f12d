import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../db/port.ts'
import { periodic } from '../core/periodic.ts'
import { compactCustomers } from './customers.ts'

// Any constant works; it only has to be the same for every Till instance sharing a database.
const COMPACTION_LOCK_KEY = 7_467_114_017

const DIMENSIONS = 'day, status, currency, token_symbol, network'

/**
 * Folds the statistics deltas written with each payment change into the daily rollups, and the customer
 * deltas into the buyer sets, all in one
 * transaction: a reader sees the deltas or their sum, never both or neither. One instance compacts at a
 * time (the others skip their turn), so two compactions never update the same rollup rows in different
 * orders. Returns how many deltas it folded.
 */
export async function compactStats(db: Database): Promise<number> {
  try {
    return await foldDeltas(db)
  } catch (error) {
    // Its snapshot was taken as it asked for the lock, just before another compaction released it: the
    // other one folded what this one would have. It skips its turn, as when the lock is taken.
    if ((error as { code?: unknown }).code === SERIALIZATION_FAILURE) return 0
    throw error
  }
}

const SERIALIZATION_FAILURE = '40001'

async function foldDeltas(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    // One snapshot for every statement: customer deltas are deleted exactly as they were folded.
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ')
    const [lock] = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [COMPACTION_LOCK_KEY])
    if (!lock?.locked) return 0
    const [row] = await tx.query<{ folded: string }>(
      `WITH moved AS (
         DELETE FROM payment_stat_deltas
         RETURNING partner_id, merchant_id, ${DIMENSIONS}, payments, amount_minor
       ), by_merchant AS (
         INSERT INTO payment_stats AS s (merchant_id, ${DIMENSIONS}, partner_id, payments, amount_minor)
         SELECT merchant_id, ${DIMENSIONS}, partner_id, sum(payments), sum(amount_minor)
           FROM moved GROUP BY merchant_id, ${DIMENSIONS}, partner_id
         ON CONFLICT (merchant_id, ${DIMENSIONS})
           DO UPDATE SET payments = s.payments + EXCLUDED.payments, amount_minor = s.amount_minor + EXCLUDED.amount_minor
       ), by_partner AS (
         INSERT INTO payment_stats_partner AS s (partner_id, ${DIMENSIONS}, payments, amount_minor)
         SELECT partner_id, ${DIMENSIONS}, sum(payments), sum(amount_minor)
           FROM moved GROUP BY partner_id, ${DIMENSIONS}
         ON CONFLICT (partner_id, ${DIMENSIONS})
           DO UPDATE SET payments = s.payments + EXCLUDED.payments, amount_minor = s.amount_minor + EXCLUDED.amount_minor
       )
       SELECT count(*)::text AS folded FROM moved`,
    )
    await compactCustomers(tx)
    return Number(row?.folded ?? 0)
  })
}

/** Compacts every `intervalMs`, so a read adds up a second's worth of deltas at most. */
export function statsCompactor(deps: { db: Database; intervalMs: number; log: FastifyBaseLogger }) {
  return periodic({
    intervalMs: deps.intervalMs,
    run: async () => {
      await compactStats(deps.db)
    },
    name: 'statistics compaction',
    log: deps.log,
  })
}
