import { isFinalStatus, MERCHANT_STATUSES, type MerchantPaymentStatus, OPEN_STATUSES } from '@till/contract'
import type { Queryable } from '../db/port.ts'
import { type ListingFilter, paymentConditions, readsRows, type SqlParams } from './filter.ts'

/**
 * Distinct customers (totalCustomers) from the per-cell buyer sets of migration 0006 when the query is
 * one of their cells, else counted from the payments. See docs/decisions/0017-listing-stats-and-cursors.md.
 */

// Hashable, unlike IS NOT DISTINCT FROM (migration 0006): a nested loop over a partner's cells took minutes.
const SAME_CELL = `customer_cell_key(cc.merchant_id, cc.status, cc.token_symbol, cc.network)
         = customer_cell_key(e.merchant_id, e.status, e.token_symbol, e.network)`

/**
 * Folds the customer deltas into the sets and their counters. Runs inside the compaction transaction,
 * which is REPEATABLE READ: both statements see the same deltas, so none is deleted without being folded.
 */
export async function compactCustomers(tx: Queryable): Promise<void> {
  await tx.query(
    `INSERT INTO customer_cells (partner_id, merchant_id, status, token_symbol, network)
     SELECT DISTINCT d.partner_id, c.merchant_id, c.status, c.token_symbol, c.network
       FROM customer_deltas d CROSS JOIN LATERAL customer_cells_of(d.merchant_id, d.status, d.token_symbol, d.network) c
     ON CONFLICT ON CONSTRAINT customer_cells_key DO NOTHING`,
  )
  await tx.query(
    `WITH folded AS (
       DELETE FROM customer_deltas RETURNING partner_id, merchant_id, status, token_symbol, network, buyer_key
     ), expanded AS (
       SELECT DISTINCT f.partner_id, c.merchant_id, c.status, c.token_symbol, c.network, f.buyer_key
         FROM folded f CROSS JOIN LATERAL customer_cells_of(f.merchant_id, f.status, f.token_symbol, f.network) c
     ), added AS (
       INSERT INTO customer_members (cell_id, buyer_key)
       SELECT cc.id, e.buyer_key FROM expanded e
         JOIN customer_cells cc ON cc.partner_id = e.partner_id AND ${SAME_CELL}
       ON CONFLICT DO NOTHING
       RETURNING cell_id
     )
     UPDATE customer_cells cc SET customers = cc.customers + a.n
       FROM (SELECT cell_id, count(*) AS n FROM added GROUP BY cell_id) a
      WHERE cc.id = a.cell_id`,
  )
}

type Cell = { merchantId: string | null; status: string | null; tokenSymbol: string | null; network: string | null }

/** The cell a filter is, if it is one: at most one value per filter, and only filters the cells carry. */
export function cellOf(filter: ListingFilter): Cell | undefined {
  if (readsRows(filter)) return undefined
  const one = (values: readonly string[] | undefined): string | null | false =>
    values === undefined ? null : values.length === 1 ? (values[0] ?? false) : false
  const statuses = filter.statuses?.length === MERCHANT_STATUSES.length ? undefined : filter.statuses
  const status = one(statuses)
  // Open statuses change: their buyers are not in the sets.
  if (status === false || (status !== null && !isFinalStatus(status as MerchantPaymentStatus))) return undefined
  const merchantId = one(filter.merchantIds)
  const tokenSymbol = one(filter.tokenSymbols)
  const network = one(filter.networks)
  if (merchantId === false || tokenSymbol === false || network === false) return undefined
  if (merchantId !== null && (tokenSymbol !== null || network !== null)) return undefined
  return { merchantId, status, tokenSymbol, network }
}

/**
 * SQL for the number of distinct buyers the filter matches. From the cell's set when the filter is a cell
 * and its time range, if any, holds every payment of the scope (so the range filters nothing out); the
 * check and the count run in one statement, on one snapshot. Otherwise counted from the payments.
 */
export function customersSql(filter: ListingFilter, params: SqlParams): string {
  // Built only when used: every parameter added must appear in the statement.
  const scanned = () => `(SELECT count(DISTINCT p.buyer_key) FROM payments p
                     WHERE ${[...paymentConditions(filter, params), 'p.buyer_key IS NOT NULL'].join(' AND ')})`
  const cell = cellOf(filter)
  if (!cell) return scanned()
  const partner = params.add(filter.partnerId)
  const is = (column: string, value: string | null) => (value === null ? `${column} IS NULL` : `${column} = ${params.add(value)}`)
  const cellWhere = [
    `cc.partner_id = ${partner}`,
    is('cc.merchant_id', cell.merchantId),
    is('cc.status', cell.status),
    is('cc.token_symbol', cell.tokenSymbol),
    is('cc.network', cell.network),
  ].join(' AND ')
  const narrow = (alias: string) =>
    [
      `${alias}.partner_id = ${partner}`,
      ...(cell.merchantId === null ? [] : [`${alias}.merchant_id = ${params.add(cell.merchantId)}`]),
      ...(cell.tokenSymbol === null ? [] : [`${alias}.token_symbol = ${params.add(cell.tokenSymbol)}`]),
      ...(cell.network === null ? [] : [`${alias}.network = ${params.add(cell.network)}`]),
    ].join(' AND ')
  const openBuyers =
    cell.status === null
      ? ` UNION SELECT p.buyer_key FROM payments p
           WHERE ${narrow('p')} AND p.buyer_key IS NOT NULL AND p.status IN (${OPEN_STATUSES.map((open) => `'${open}'`).join(', ')})`
      : ''
  const fromSets = `(
    (SELECT coalesce(max(cc.customers), 0) FROM customer_cells cc WHERE ${cellWhere})
    + (SELECT count(*) FROM (
         SELECT DISTINCT d.buyer_key FROM customer_deltas d
          WHERE ${narrow('d')}${cell.status === null ? '' : ` AND d.status = ${params.add(cell.status)}`}${openBuyers}
       ) x
       WHERE NOT EXISTS (
         SELECT 1 FROM customer_members m JOIN customer_cells cc ON cc.id = m.cell_id
          WHERE ${cellWhere} AND m.buyer_key = x.buyer_key)))`
  if (filter.startTs === undefined && filter.endTs === undefined) return fromSets
  const scope = cell.merchantId === null ? `partner_id = ${partner}` : `merchant_id = ${params.add(cell.merchantId)}`
  const covered = [
    ...(filter.startTs === undefined
      ? []
      : [`${params.add(filter.startTs)}::timestamptz <= coalesce((SELECT min(created_at) FROM payments WHERE ${scope}), 'infinity')`]),
    ...(filter.endTs === undefined
      ? []
      : [`${params.add(filter.endTs)}::timestamptz > coalesce((SELECT max(created_at) FROM payments WHERE ${scope}), '-infinity')`]),
  ].join(' AND ')
  return `(CASE WHEN ${covered} THEN ${fromSets} ELSE ${scanned()} END)`
}
