import { z } from 'zod'

/** Oldest first: a version's index is its age, which `compareApiVersions` and downgrade checks rely on. */
export const API_VERSIONS = ['2026-02-18', '2026-02-19.preview'] as const

export const ApiVersion = z
  .enum(API_VERSIONS)
  .meta({ id: 'ApiVersion', description: 'API version: a date, optionally with a `.label` for previews.' })
export type ApiVersion = z.infer<typeof ApiVersion>

export const DEFAULT_API_VERSION: ApiVersion = '2026-02-18'

const VERSION_SHAPE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:\.[a-z][a-z0-9]*)?$/

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false
  // Day 0 of the next month is the last day of this one; UTC avoids DST and local-zone surprises.
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  return day <= daysInMonth
}

export type ParsedApiVersion = { ok: true; version: ApiVersion } | { ok: false; code: 'invalid_api_version' | 'unknown_api_version' }

/** Tells a typo (`invalid_api_version`) apart from a well-formed version this server does not know. */
export function parseApiVersion(raw: string): ParsedApiVersion {
  const match = VERSION_SHAPE.exec(raw)
  if (!match) return { ok: false, code: 'invalid_api_version' }
  const [, year, month, day] = match
  if (!isCalendarDate(Number(year), Number(month), Number(day))) return { ok: false, code: 'invalid_api_version' }
  const known = API_VERSIONS.find((v) => v === raw)
  return known === undefined ? { ok: false, code: 'unknown_api_version' } : { ok: true, version: known }
}

/** Negative when `a` is older than `b`, zero when equal, positive when newer. */
export function compareApiVersions(a: ApiVersion, b: ApiVersion): number {
  return API_VERSIONS.indexOf(a) - API_VERSIONS.indexOf(b)
}
