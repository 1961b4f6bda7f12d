import type { Queryable } from '../db/port.ts'
import { splitDays } from './days.ts'
import { type ListingFilter, paymentConditions, readsRows, SqlParams, timeConditions } from './filter.ts'
import { rollupSources } from './stats.ts'

/** One UTC day of a filter's payments: how many, and their sum per currency in minor units. */
export type DailyVolume = { day: string; payments: number; amounts: { currency: string; minor: string }[] }

// A chart of more days than this says nothing more: the range is cut to its most recent days.
export const MAX_CHART_DAYS = 366

/**
 * The dashboard's volume chart (issue 25, point 5): the filter's payments counted and summed per UTC day,
 * over its range (or its last 30 days). Read as the listing's stats are, so the bars add up to its tiles;
 * money stays integer text from the database to the page.
 */
export async function readDailyVolumes(db: Queryable, filter: ListingFilter, now: Date): Promise<DailyVolume[]> {
  // Without an end, the range ends with today's UTC day: a payment made this instant is on its bar.
  const to = filter.endTs ?? new Date(Date.parse(now.toISOString().slice(0, 10)) + DAY).toISOString()
  // Whole UTC days, so the first bar counts its whole day.
  const lastDay = Date.parse(new Date(Date.parse(to) - 1).toISOString().slice(0, 10))
  const firstDay = (days: number) => new Date(lastDay - (days - 1) * DAY).toISOString()
  const earliest = firstDay(MAX_CHART_DAYS)
  const lastMonth = firstDay(30)
  // The filter's own start is kept as it is written: it may carry microseconds a Date would drop.
  const start = filter.startTs
  const from = start === undefined ? lastMonth : Date.parse(start) >= Date.parse(earliest) ? start : earliest
  const ranged = { ...filter, startTs: from, endTs: to }
  // As the stats are read: whole UTC days from the rollups and their deltas where the filter allows, the
  // partial days at the ends (and filters the rollups do not carry) from the payments themselves.
  const params = new SqlParams()
  const parts: string[] = []
  const fromRows = (time: { from?: string; to?: string }) => {
    const where = [...paymentConditions(ranged, params, { time: false }), ...timeConditions(time.from, time.to, params)]
    parts.push(`SELECT to_char(date_trunc('day', p.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, p.currency,
                       count(*) AS payments, sum(p.amount_minor) AS minor
                  FROM payments p WHERE ${where.join(' AND ')} GROUP BY 1, 2`)
  }
  if (readsRows(ranged)) {
    fromRows({ from, to })
  } else {
    const split = splitDays(from, to)
    for (const edge of split.edges) fromRows(edge)
    if (split.days) {
      for (const { table, conditions } of rollupSources(ranged, split.days, params)) {
        parts.push(`SELECT to_char(s.day, 'YYYY-MM-DD') AS day, s.currency, sum(s.payments) AS payments, sum(s.amount_minor) AS minor
                      FROM ${table} s WHERE ${conditions} GROUP BY 1, 2`)
      }
    }
  }
  const rows = await db.query<{ day: string; currency: string; payments: string; minor: string }>(
    `SELECT day, currency, sum(payments)::text AS payments, sum(minor)::text AS minor
       FROM (${parts.join(' UNION ALL ')}) cells
      GROUP BY 1, 2 HAVING sum(payments) <> 0 ORDER BY 1, 2`,
    params.values,
  )
  // Every day of the range has its bar, an empty day included, so the chart's axis is the range itself.
  const days = new Map<string, DailyVolume>()
  for (let day = Date.parse(from.slice(0, 10)); day < Date.parse(to); day += DAY) {
    const key = new Date(day).toISOString().slice(0, 10)
    days.set(key, { day: key, payments: 0, amounts: [] })
  }
  for (const row of rows) {
    const day = days.get(row.day)
    if (!day) continue
    day.payments += Number(row.payments)
    day.amounts.push({ currency: row.currency, minor: row.minor })
  }
  return [...days.values()]
}

const DAY = 24 * 3600 * 1000
