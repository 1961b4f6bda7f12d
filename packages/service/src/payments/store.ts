import { currencyByCode, type MerchantPaymentStatus, OPEN_STATUSES } from '@till/contract'
import type { Queryable } from '../db/port.ts'
import { sourcesOf } from './lifecycle.ts'
import type { CachedStatus } from './status-cache.ts'
import { PAYMENT_COLUMNS, toPaymentRecord, type PaidDetails, type PaymentRecord, type PaymentRow } from './record.ts'

export type NewPayment = Omit<PaymentRecord, 'status' | 'updatedAt' | 'paid'>

// A payment holds its referenceId while it can still succeed, or once it has (ADR 3); the partial unique
// index payments_live_reference has the same predicate, which ON CONFLICT must imply.
export const REFERENCE_HOLDING: readonly MerchantPaymentStatus[] = [...OPEN_STATUSES, 'succeeded']
const LIVE = `(${REFERENCE_HOLDING.map((status) => `'${status}'`).join(', ')})`

function currencyExponent(code: string): number {
  const currency = currencyByCode(code)
  if (!currency) throw new Error(`unknown currency ${code}: payments are created for ISO 4217 currencies only`)
  return currency.exponent
}

/** Hears of each creation and status change a store's statements make (metrics count them). */
export type PaymentObserver = {
  created(): void
  moved(change: { from: MerchantPaymentStatus; to: MerchantPaymentStatus }, count: number): void
}

export const UNOBSERVED: PaymentObserver = { created: () => {}, moved: () => {} }

/**
 * SQL for payments and their transitions. Each status change is one compare-and-set statement. `observe`
 * hears of what the statements did; on a transaction's store it is told only once the transaction commits
 * (see `paymentService.atomically`).
 */
export function paymentStore(db: Queryable, observe: PaymentObserver = UNOBSERVED) {
  return {
    /**
     * Inserts the payment unless the merchant already has a live (open or succeeded) payment for the
     * referenceId; the partial unique index decides, so concurrent identical creates yield one row.
     */
    async insertUnlessLive(payment: NewPayment): Promise<boolean> {
      const rows = await db.query(
        `WITH inserted AS (
           INSERT INTO payments (id, merchant_id, partner_id, reference_id, currency, fiat_exponent, amount_minor,
                                 success_url, error_url, redirect_enabled, status, created_at, updated_at,
                                 expires_at)
           VALUES ($1, $2, $3, $4, $5, $12, $6, $7, $8, $9, 'pending', $10, $10, $11)
           ON CONFLICT (merchant_id, reference_id) WHERE status IN ${LIVE} DO NOTHING
           RETURNING id, created_at
         ), logged AS (
           INSERT INTO payment_transitions (payment_id, from_status, to_status, reason, at)
           SELECT id, NULL, 'pending', 'created', created_at FROM inserted
         )
         SELECT id FROM inserted`,
        [
          payment.id,
          payment.merchantId,
          payment.partnerId,
          payment.referenceId,
          payment.currency,
          payment.amountMinor.toString(),
          payment.successUrl,
          payment.errorUrl,
          payment.redirectEnabled,
          payment.createdAt,
          payment.expiresAt,
          String(currencyExponent(payment.currency)),
        ],
      )
      if (rows.length === 1) observe.created()
      return rows.length === 1
    },

    async findLiveByReference(merchantId: string, referenceId: string): Promise<PaymentRecord | undefined> {
      const [row] = await db.query<PaymentRow>(
        `SELECT ${PAYMENT_COLUMNS} FROM payments
          WHERE merchant_id = $1 AND reference_id = $2 AND status IN ${LIVE}`,
        [merchantId, referenceId],
      )
      return row && toPaymentRecord(row)
    },

    /** Just what a status read needs: a narrow row is cheaper to produce and to parse. */
    async findStatus(id: string): Promise<CachedStatus | undefined> {
      const [row] = await db.query<{
        id: string
        merchant_id: string
        partner_id: string
        status: MerchantPaymentStatus
        expires_at: Date
      }>('SELECT id, merchant_id, partner_id, status, expires_at FROM payments WHERE id = $1', [id])
      return (
        row && {
          id: row.id,
          merchantId: row.merchant_id,
          partnerId: row.partner_id,
          status: row.status,
          expiresAt: row.expires_at.getTime(),
        }
      )
    },

    async findById(id: string): Promise<PaymentRecord | undefined> {
      const [row] = await db.query<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = $1`, [id])
      return row && toPaymentRecord(row)
    },

    /** Many payments in one read (the chain watcher's range of transfers), as they are stored: no deadline applied. */
    async findByIds(ids: readonly string[]): Promise<PaymentRecord[]> {
      if (ids.length === 0) return []
      const rows = await db.query<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = ANY ($1::text[])`, [ids])
      return rows.map(toPaymentRecord)
    },

    /**
     * Moves a payment to `to` if, at the moment of the update, it is in one of the rule's source states
     * (optionally narrowed by `from`). A pending payment past its deadline can only expire: that is how a
     * late confirmation loses to the expiry even before the sweeper has run.
     * Returns the state it moved from, or undefined when the compare-and-set did not match.
     */
    async transition(input: {
      id: string
      to: MerchantPaymentStatus
      from?: readonly MerchantPaymentStatus[]
      reason: string
      now: Date
      paid?: PaidDetails
    }): Promise<MerchantPaymentStatus | undefined> {
      const sources = sourcesOf(input.to).filter((state) => !input.from || input.from.includes(state))
      if (sources.length === 0) return undefined
      const paid = input.paid
      const token = paid?.token
      const settled = paid?.settlement?.settled === true ? paid.settlement : undefined
      const [row] = await db.query<{ from_status: MerchantPaymentStatus }>(
        `WITH current AS (
           SELECT id, status FROM payments WHERE id = $1 FOR UPDATE
         ), moved AS (
           UPDATE payments p
              SET status = $2, updated_at = $3,
                  buyer_account = COALESCE($6, p.buyer_account),
                  buyer_provider_name = COALESCE($7, p.buyer_provider_name),
                  buyer_provider_icon = COALESCE($8, p.buyer_provider_icon),
                  network = COALESCE($9, p.network),
                  tx_hash = COALESCE($10, p.tx_hash),
                  tx_nonce = COALESCE($11::bigint, p.tx_nonce),
                  token_unit = COALESCE($12, p.token_unit),
                  token_value = COALESCE($13::numeric, p.token_value),
                  token_symbol = COALESCE($14, p.token_symbol),
                  token_name = COALESCE($15, p.token_name),
                  token_decimals = COALESCE($16::integer, p.token_decimals),
                  fee_minor = COALESCE($17::bigint, p.fee_minor),
                  fee_percentage = COALESCE($18, p.fee_percentage),
                  settled = COALESCE($19::boolean, p.settled),
                  settlement_minor = COALESCE($20::bigint, p.settlement_minor),
                  settlement_tx_hash = COALESCE($21, p.settlement_tx_hash),
                  settled_at = COALESCE($22::timestamptz, p.settled_at),
                  wallet_app_id = COALESCE($23, p.wallet_app_id),
                  wallet_client_id = COALESCE($24, p.wallet_client_id)
             FROM current c
            WHERE p.id = c.id AND c.status = ANY ($4::text[])
              AND (c.status <> 'pending' OR $2 = 'expired' OR p.expires_at > $3)
           RETURNING p.id, c.status AS from_status, p.status AS to_status
         ), logged AS (
           INSERT INTO payment_transitions (payment_id, from_status, to_status, reason, at)
           SELECT id, from_status, to_status, $5, $3 FROM moved
         )
         SELECT from_status FROM moved`,
        [
          input.id,
          input.to,
          input.now,
          sources,
          input.reason,
          paid?.buyerAccount ?? null,
          paid?.buyerProviderName ?? null,
          paid?.buyerProviderIcon ?? null,
          paid?.network ?? null,
          paid?.txHash ?? null,
          paid?.txNonce?.toString() ?? null,
          token?.unit ?? null,
          token?.value.toString() ?? null,
          token?.symbol ?? null,
          token?.name ?? null,
          token?.decimals ?? null,
          paid?.feeMinor?.toString() ?? null,
          paid?.feePercentage ?? null,
          paid?.settlement ? paid.settlement.settled : null,
          settled?.amountMinor.toString() ?? null,
          settled?.txHash ?? null,
          settled?.settledAt ?? null,
          paid?.wallet?.appId ?? null,
          paid?.wallet?.clientId ?? null,
        ],
      )
      if (row) observe.moved({ from: row.from_status, to: input.to }, 1)
      return row?.from_status
    },

    /**
     * Expires pending payments whose deadline has passed, oldest first, at most `limit` of them. They expire
     * as of their own deadline, not as of the sweep, so the record does not depend on when the sweep ran.
     * SKIP LOCKED lets several instances sweep one database without waiting on each other; expiring one
     * given payment (on read) waits for the lock instead, so the reader sees the outcome.
     */
    async expireDue(now: Date, limit: number, onlyId?: string, partnerId?: string): Promise<string[]> {
      const rows = await db.query<{ id: string }>(
        `WITH due AS (
           SELECT id FROM payments
            WHERE status = 'pending' AND expires_at <= $1 AND ($3::text IS NULL OR id = $3)
              AND ($4::text IS NULL OR partner_id = $4)
            ORDER BY expires_at
            LIMIT $2
            FOR UPDATE ${onlyId ? '' : 'SKIP LOCKED'}
         ), moved AS (
           UPDATE payments p SET status = 'expired', updated_at = p.expires_at
             FROM due WHERE p.id = due.id AND p.status = 'pending'
           RETURNING p.id, p.expires_at
         ), logged AS (
           INSERT INTO payment_transitions (payment_id, from_status, to_status, reason, at)
           SELECT id, 'pending' AS from_status, 'expired' AS to_status, 'deadline', expires_at FROM moved
         )
         SELECT id FROM moved`,
        [now, limit, onlyId ?? null, partnerId ?? null],
      )
      if (rows.length > 0) observe.moved({ from: 'pending', to: 'expired' }, rows.length)
      return rows.map((row) => row.id)
    },

    /**
     * Brings a pending payment's deadline forward to `to` (never later than it was). Not a status change:
     * the expiry itself is left to `expireDue`, as for any deadline. Returns whether the payment is pending.
     */
    async moveDeadline(id: string, to: Date): Promise<boolean> {
      const rows = await db.query(
        `UPDATE payments SET expires_at = LEAST(expires_at, $2) WHERE id = $1 AND status = 'pending' RETURNING id`,
        [id, to],
      )
      return rows.length === 1
    },

    /**
     * A processing payment's transaction was replaced by the buyer's wallet (same nonce, same transfer): the
     * payment now shows the replacement's hash. Not a status change. Returns whether it was processing.
     */
    async replaceTransaction(id: string, txHash: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        `UPDATE payments SET tx_hash = $2, updated_at = $3 WHERE id = $1 AND status = 'processing' RETURNING id`,
        [id, txHash, now],
      )
      return rows.length === 1
    },

    async transitions(paymentId: string) {
      return db.query<{ from_status: MerchantPaymentStatus | null; to_status: MerchantPaymentStatus; reason: string; at: Date }>(
        `SELECT from_status, to_status, reason, at FROM payment_transitions WHERE payment_id = $1 ORDER BY id`,
        [paymentId],
      )
    },
  }
}

export type PaymentStore = ReturnType<typeof paymentStore>
