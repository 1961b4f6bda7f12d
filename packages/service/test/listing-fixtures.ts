import { currencyByCode } from '@till/contract'
import type { Queryable } from '../src/db/port.ts'
import { newPaymentId, randomToken } from '../src/core/ids.ts'

/** A payment as the listing tests need it: every listed and filtered column under the test's control. */
export type SeedPayment = {
  partnerId: string
  merchantId: string
  /** RFC 3339, microseconds kept (PostgreSQL parses it, not a JS Date). */
  createdAt: string
  currency?: string
  amountMinor?: bigint
  status?: 'pending' | 'processing' | 'succeeded' | 'failed' | 'expired'
  referenceId?: string
  /** Paid payments only: who paid, on which network and token. */
  buyer?: string
  network?: string
  tokenSymbol?: string
  wallet?: { appId: string; clientId: string }
  id?: string
}

/**
 * Writes payments straight into the table, through its triggers (buyer keys, statistics deltas) like any
 * write: the listing's tests need timestamps to the microsecond and statuses a lifecycle would take many
 * calls to reach. Open payments expire far in the future so no read ends them.
 */
export async function insertPayments(db: Queryable, payments: readonly SeedPayment[]): Promise<string[]> {
  const ids: string[] = []
  for (const p of payments) {
    const id = p.id ?? newPaymentId()
    const currency = p.currency ?? 'EUR'
    const status = p.status ?? 'succeeded'
    const paid = status !== 'pending' && status !== 'expired'
    const buyer = paid ? (p.buyer ?? `eip155:8453:0x${randomToken(20).padEnd(40, '0').slice(0, 40)}`) : null
    const network = paid ? (p.network ?? 'eip155:8453') : null
    const symbol = paid ? (p.tokenSymbol ?? 'USDC') : null
    await db.query(
      `INSERT INTO payments (id, merchant_id, partner_id, reference_id, currency, fiat_exponent, amount_minor, redirect_enabled,
                             status, created_at, updated_at, expires_at, buyer_account, network, token_unit, token_value,
                             token_symbol, token_name, token_decimals, wallet_app_id, wallet_client_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, false, $8, $9::timestamptz, $9::timestamptz, '2099-01-01T00:00:00Z', $10, $11,
               CASE WHEN $11::text IS NULL THEN NULL ELSE $11 || '/erc20:0x0000000000000000000000000000000000000001' END,
               CASE WHEN $11::text IS NULL THEN NULL ELSE 1000000 END, $12, $12, CASE WHEN $12::text IS NULL THEN NULL ELSE 6 END,
               $13, $14)`,
      [
        id,
        p.merchantId,
        p.partnerId,
        p.referenceId ?? `order-${randomToken(6)}`,
        currency,
        String(currencyByCode(currency)?.exponent ?? 2),
        String(p.amountMinor ?? 1000n),
        status,
        p.createdAt,
        buyer,
        network,
        symbol,
        p.wallet?.appId ?? null,
        p.wallet?.clientId ?? null,
      ],
    )
    ids.push(id)
  }
  return ids
}

/** Midday UTC on `day` plus `micros` microseconds, as an RFC 3339 string with all six digits. */
export const at = (day: string, micros = 0): string => `${day}T12:00:00.${String(micros).padStart(6, '0')}Z`
