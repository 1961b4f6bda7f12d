import { canRefundTransition, HOLDING_REFUND_STATUSES, REFUND_STATUSES, type RefundStatus } from '@till/contract'
import type { Queryable, SqlValue } from '../db/port.ts'
import { REFUND_COLUMNS, type RefundMatch, type RefundRecord, type RefundRow, toRefundRecord } from './record.ts'

export type NewRefund = Omit<RefundRecord, 'status' | 'transaction' | 'blockNumber' | 'unminedSince' | 'updatedAt'> & {
  status: 'awaiting_destination' | 'ready'
}

/** What a status change may also set: where the refund goes, and the transfer that pays it. */
export type RefundChange = {
  /** Where it goes; the pay link then works until `payExpiresAt`. */
  destination?: string
  payExpiresAt?: Date
  transaction?: { hash: string; from: string | null; matchedBy: RefundMatch }
  /** When the follower first checks the transfer. */
  checkAt?: Date
}

const sourcesOf = (to: RefundStatus): RefundStatus[] => REFUND_STATUSES.filter((from) => canRefundTransition(from, to))

/** SQL for refunds. Each status change is one compare-and-set from the contract's allowed sources. */
export function refundStore(db: Queryable) {
  async function one(sql: string, params: SqlValue[]): Promise<RefundRecord | undefined> {
    const [row] = await db.query<RefundRow>(sql, params)
    return row && toRefundRecord(row)
  }

  return {
    /**
     * Inserts the refund. Its trigger adds what it holds to its payment's refund_held_minor, whose CHECK
     * refuses (23514) a sum past what was paid; an unapplied transfer's second live refund meets the unique
     * index refunds_unapplied_holding (23505).
     */
    async insert(refund: NewRefund): Promise<RefundRecord> {
      const created = await one(
        `INSERT INTO refunds (id, partner_id, merchant_id, payment_id, unapplied_network, unapplied_tx_hash, rail, currency,
                              amount_minor, network, token_unit, token_symbol, token_name, token_decimals, token_amount,
                              status, reason, destination, reference, claim_expires_at, pay_expires_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::bigint, $10, $11, $12, $13, $14, $15::numeric, $16, $17, $18, $19, $20, $22, $21, $21)
         RETURNING ${REFUND_COLUMNS}`,
        [
          refund.id,
          refund.partnerId,
          refund.merchantId,
          refund.paymentId,
          refund.unapplied?.network ?? null,
          refund.unapplied?.txHash ?? null,
          refund.rail,
          refund.fiat?.currency ?? null,
          refund.fiat?.amountMinor.toString() ?? null,
          refund.network,
          refund.token.unit,
          refund.token.symbol,
          refund.token.name,
          refund.token.decimals,
          refund.tokenAmount.toString(),
          refund.status,
          refund.reason,
          refund.destination,
          refund.reference,
          refund.claimExpiresAt,
          refund.createdAt,
          refund.payExpiresAt,
        ],
      )
      if (!created) throw new Error(`refund ${refund.id} was not inserted`)
      return created
    },

    findById: (id: string) => one(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE id = $1`, [id]),

    async listByPayment(paymentId: string): Promise<RefundRecord[]> {
      const rows = await db.query<RefundRow>(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE payment_id = $1 ORDER BY seq`, [paymentId])
      return rows.map(toRefundRecord)
    },

    async listByUnapplied(network: string, txHash: string): Promise<RefundRecord[]> {
      const rows = await db.query<RefundRow>(
        `SELECT ${REFUND_COLUMNS} FROM refunds WHERE unapplied_network = $1 AND unapplied_tx_hash = $2 ORDER BY seq`,
        [network, txHash.toLowerCase()],
      )
      return rows.map(toRefundRecord)
    },

    /** The tokens a payment's live refunds hold: the last refund takes what is left, to the unit. */
    async tokenHeld(paymentId: string): Promise<bigint> {
      const [row] = await db.query<{ held: string }>(
        `SELECT coalesce(sum(token_amount), 0)::text AS held FROM refunds
          WHERE payment_id = $1 AND unapplied_tx_hash IS NULL AND status = ANY ($2::text[])`,
        [paymentId, HOLDING_REFUND_STATUSES],
      )
      return BigInt(row?.held ?? '0')
    },

    /**
     * Moves a refund to `to` if it is, at the moment of the update, in one of the allowed source states
     * (narrowed by `from`). Returns the refund as it is afterwards when it moved, undefined when not.
     */
    async move(input: { id: string; to: RefundStatus; from?: readonly RefundStatus[]; now: Date; change?: RefundChange }) {
      const sources = sourcesOf(input.to).filter((state) => !input.from || input.from.includes(state))
      const { change = {} } = input
      return one(
        `UPDATE refunds
            SET status = $2, updated_at = $3::timestamptz,
                destination = COALESCE(destination, $5),
                pay_expires_at = COALESCE($10::timestamptz, pay_expires_at),
                tx_hash = COALESCE($6, tx_hash), tx_from = COALESCE($7, tx_from), matched_by = COALESCE($8, matched_by),
                next_check_at = CASE WHEN $2 = 'submitted' THEN COALESCE($9::timestamptz, $3::timestamptz) ELSE NULL END,
                lease_until = NULL
          WHERE id = $1 AND status = ANY ($4::text[])
         RETURNING ${REFUND_COLUMNS}`,
        [
          input.id,
          input.to,
          input.now,
          sources,
          change.destination ?? null,
          change.transaction?.hash.toLowerCase() ?? null,
          change.transaction?.from ?? null,
          change.transaction?.matchedBy ?? null,
          change.checkAt ?? null,
          change.payExpiresAt ?? null,
        ],
      )
    },

    /**
     * Submitted refunds whose transfer is due a check, leased to this instance until `leaseUntil`: several
     * instances split the list (SKIP LOCKED), and a crashed one's lease runs out.
     */
    async lease(now: Date, leaseUntil: Date, limit: number, except: readonly string[] = []): Promise<RefundRecord[]> {
      const rows = await db.query<RefundRow>(
        `WITH due AS (
           SELECT id FROM refunds
            WHERE status = 'submitted' AND next_check_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
              AND id <> ALL ($4::text[])
            ORDER BY next_check_at LIMIT $3 FOR UPDATE SKIP LOCKED
         )
         UPDATE refunds r SET lease_until = $2 FROM due WHERE r.id = due.id
         RETURNING ${REFUND_COLUMNS.split(', ')
           .map((column) => `r.${column}`)
           .join(', ')}`,
        [now, leaseUntil, limit, except],
      )
      return rows.map(toRefundRecord)
    },

    /** After a check that changed no status: when to look again, and what the chain said meanwhile. */
    async reschedule(id: string, next: Date, seen: { blockNumber: bigint | null; unminedSince: Date | null }): Promise<void> {
      await db.query(
        `UPDATE refunds SET next_check_at = $2, lease_until = NULL, block_number = $3::bigint, unmined_since = $4
          WHERE id = $1 AND status = 'submitted'`,
        [id, next, seen.blockNumber?.toString() ?? null, seen.unminedSince],
      )
    },

    /**
     * The refunds on a network a transfer may still pay, for the chain watcher: the ready ones, and the
     * submitted ones whose transaction is out of every block (a wallet may have replaced it, "speed up").
     */
    async awaitingTransferOn(network: string): Promise<RefundRecord[]> {
      const rows = await db.query<RefundRow>(
        `SELECT ${REFUND_COLUMNS} FROM refunds
          WHERE network = $1 AND (status = 'ready' OR (status = 'submitted' AND unmined_since IS NOT NULL))`,
        [network],
      )
      return rows.map(toRefundRecord)
    },

    /** A submitted refund's transaction was replaced by one that pays it the same way: it is followed instead. */
    async rebind(id: string, transaction: { hash: string; from: string }, now: Date): Promise<RefundRecord | undefined> {
      return one(
        `UPDATE refunds SET tx_hash = $2, tx_from = $3, unmined_since = NULL, block_number = NULL, next_check_at = $4,
                            lease_until = NULL, updated_at = $4
          WHERE id = $1 AND status = 'submitted' AND unmined_since IS NOT NULL
         RETURNING ${REFUND_COLUMNS}`,
        [id, transaction.hash.toLowerCase(), transaction.from, now],
      )
    },
  }
}

export type RefundStore = ReturnType<typeof refundStore>
