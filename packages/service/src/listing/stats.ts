import { currencyByCode, type PaymentListStats } from '@till/contract'
import type { Queryable } from '../db/port.ts'
import { customersSql } from './customers.ts'
import { type DaySplit, splitDays } from './days.ts'
import { dimensionConditions, type ListingFilter, paymentConditions, readsRows, SqlParams, timeConditions } from './filter.ts'

/** The statistics of a query as exact integers: revenue in minor units per currency. */
export type ExactStats = {
  revenue: { currency: string; minor: bigint }[]
  transactions: bigint
  customers: bigint
}

export const NO_STATS: ExactStats = { revenue: [], transactions: 0n, customers: 0n }

/**
 * Reads the statistics of every payment the filter matches, in one statement (one snapshot). Counts and
 * revenue come from the daily rollups and their unfolded deltas for whole UTC days, and from the payments
 * themselves for the partial days at the ends of the range; filters the rollups do not carry (referenceId,
 * the wallet scope) read payments throughout. Distinct buyers are always counted from the payments.
 */
export async function readStats(db: Queryable, filter: ListingFilter): Promise<ExactStats> {
  const params = new SqlParams()
  const parts: string[] = []
  const fromRows = (time: { from?: string; to?: string }) => {
    const where = [...paymentConditions(filter, params, { time: false }), ...timeConditions(time.from, time.to, params)]
    parts.push(`SELECT p.currency, p.status, count(*) AS payments, sum(p.amount_minor) AS amount_minor
                  FROM payments p WHERE ${where.join(' AND ')} GROUP BY 1, 2`)
  }
  const rollupsServe = !readsRows(filter)
  if (!rollupsServe) {
    fromRows({ ...(filter.startTs ? { from: filter.startTs } : {}), ...(filter.endTs ? { to: filter.endTs } : {}) })
  } else {
    const split = splitDays(filter.startTs, filter.endTs)
    for (const edge of split.edges) fromRows(edge)
    if (split.days) {
      for (const { table, conditions } of rollupSources(filter, split.days, params)) {
        parts.push(`SELECT s.currency, s.status, sum(s.payments) AS payments, sum(s.amount_minor) AS amount_minor
                      FROM ${table} s WHERE ${conditions} GROUP BY 1, 2`)
      }
    }
  }
  const customers = customersSql(filter, params)
  const rows = await db.query<{ currency: string | null; payments: string; revenue: string | null; sold: string; customers: string }>(
    `WITH cells AS (${parts.join(' UNION ALL ')}),
          per_currency AS (
            SELECT currency, sum(payments) AS payments,
                   sum(amount_minor) FILTER (WHERE status = 'succeeded') AS revenue,
                   coalesce(sum(payments) FILTER (WHERE status = 'succeeded'), 0) AS sold
              FROM cells GROUP BY currency
          ),
          customers AS (SELECT ${customers} AS n)
     SELECT pc.currency, pc.payments::text AS payments, pc.revenue::text AS revenue, pc.sold::text AS sold, c.n::text AS customers
       FROM customers c LEFT JOIN per_currency pc ON true
      ORDER BY pc.currency`,
    params.values,
  )
  let transactions = 0n
  const revenue: ExactStats['revenue'] = []
  for (const row of rows) {
    if (row.currency === null) continue
    transactions += BigInt(row.payments)
    if (BigInt(row.sold) > 0n) revenue.push({ currency: row.currency, minor: BigInt(row.revenue ?? '0') })
  }
  return { revenue, transactions, customers: BigInt(rows[0]?.customers ?? '0') }
}

/**
 * Where whole days of a filter are counted: its rollup (per merchant, or partner-wide without a merchant
 * filter) and the deltas not yet folded into it, each with the filter's conditions on alias `s`.
 */
export function rollupSources(
  filter: ListingFilter,
  days: NonNullable<DaySplit['days']>,
  params: SqlParams,
): { table: string; conditions: string }[] {
  const where = [`s.partner_id = ${params.add(filter.partnerId)}`, ...dimensionConditions(filter, params, 's.')]
  if (filter.merchantIds) where.push(`s.merchant_id = ANY (${params.add(filter.merchantIds)}::text[])`)
  if (days.from) where.push(`s.day >= ${params.add(days.from)}::date`)
  if (days.to) where.push(`s.day < ${params.add(days.to)}::date`)
  const conditions = where.join(' AND ')
  const rollup = filter.merchantIds ? 'payment_stats' : 'payment_stats_partner'
  return [rollup, 'payment_stat_deltas'].map((table) => ({ table, conditions }))
}

/** The wire form (spec 2.2): revenue as a number in the currency's standard unit. */
export function statsView(stats: ExactStats): PaymentListStats {
  return {
    totalRevenue: stats.revenue.map(({ currency, minor }) => ({ currency, amount: toStandardUnit(minor, currency) })),
    totalTransactions: Number(stats.transactions),
    totalCustomers: Number(stats.customers),
  }
}

/**
 * The one step from exact integers to a float: the decimal text of the sum, placed by the ISO 4217
 * exponent, is parsed once, so the number is the double nearest the exact value (12.5 for USD 1250).
 */
export function toStandardUnit(minor: bigint, currency: string): number {
  const exponent = currencyByCode(currency)?.exponent ?? 2
  const negative = minor < 0n
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0')
  const text = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`
  return Number(negative ? `-${text}` : text)
}
