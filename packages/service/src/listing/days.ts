import { compareInstants } from '@till/contract'

/** A time range split for the statistics: whole UTC days read from rollups, the rest from payments. */
export type DaySplit = {
  /** Whole days `from <= day < to` (YYYY-MM-DD; absent bound: unbounded); undefined: no whole day at all. */
  days: { from?: string; to?: string } | undefined
  /** Instants `from <= createdAt < to` read row by row. */
  edges: { from?: string; to?: string }[]
}

const DAY_MS = 86_400_000

const dayOf = (instant: string): string => new Date(Date.parse(instant)).toISOString().slice(0, 10)
const midnight = (day: string): string => `${day}T00:00:00Z`
const nextDay = (day: string): string => new Date(Date.parse(midnight(day)) + DAY_MS).toISOString().slice(0, 10)

/**
 * Splits `[startTs, endTs)` at UTC midnights. The bounds stay strings: PostgreSQL keeps microseconds a
 * JS Date would drop, and an instant a microsecond after midnight does not start a whole day.
 */
export function splitDays(startTs: string | undefined, endTs: string | undefined): DaySplit {
  const from = startTs === undefined ? undefined : startsAtMidnight(startTs) ? dayOf(startTs) : nextDay(dayOf(startTs))
  const to = endTs === undefined ? undefined : dayOf(endTs)
  if (from !== undefined && to !== undefined && from >= to) {
    return { days: undefined, edges: [{ ...(startTs ? { from: startTs } : {}), ...(endTs ? { to: endTs } : {}) }] }
  }
  const edges: DaySplit['edges'] = []
  if (startTs !== undefined && from !== undefined && !startsAtMidnight(startTs)) edges.push({ from: startTs, to: midnight(from) })
  if (endTs !== undefined && to !== undefined && compareInstants(endTs, midnight(to)) > 0) edges.push({ from: midnight(to), to: endTs })
  return { days: { ...(from ? { from } : {}), ...(to ? { to } : {}) }, edges }
}

function startsAtMidnight(instant: string): boolean {
  return compareInstants(instant, midnight(dayOf(instant))) === 0
}
