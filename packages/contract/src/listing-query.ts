import { z } from 'zod'
import { CAIP19_PATTERN, Caip2 } from './caip.ts'
import { ListingPaymentStatus } from './status.ts'

export const LIST_LIMIT_DEFAULT = 50
export const LIST_LIMIT_MAX = 200
export const REFERENCE_ID_FILTER_PATTERN = /^[A-Za-z0-9 /:.,+-]*$/

/** What a query-string parser hands over: one string, repeated strings, or nothing. */
export type RawQuery = Record<string, string | string[] | undefined>

const REPEATED = 'must be given at most once'

// A query parser turns a repeated parameter into an array; for single-valued parameters say so plainly
// instead of "expected string, received array".
function once(expectation: string) {
  return z.string({ error: (iss) => (Array.isArray(iss.input) ? REPEATED : expectation) })
}

/** Parameters documented as repeatable accept one value too, and always come out as arrays. */
function repeatable<T extends z.ZodType>(item: T) {
  return z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(item))
}

const timestamp = () =>
  z.iso
    .datetime({
      offset: true,
      error: (iss) => (Array.isArray(iss.input) ? REPEATED : 'must be an RFC 3339 date-time with a time zone, e.g. 2026-02-18T12:00:00Z'),
    })
    .optional()

/**
 * Orders two RFC 3339 instants exactly: Date keeps milliseconds only, so finer fractions break ties.
 * Offsets are whole minutes, so the sub-millisecond digits never depend on the zone.
 */
export function compareInstants(a: string, b: string): number {
  const byMs = Date.parse(a) - Date.parse(b)
  if (byMs !== 0) return byMs
  const subMs = (s: string): string => (/\.([0-9]+)/.exec(s)?.[1] ?? '').slice(3).padEnd(12, '0')
  const fa = subMs(a)
  const fb = subMs(b)
  return fa < fb ? -1 : fa > fb ? 1 : 0
}

/**
 * Marks a refinement as a rule of the API rather than a malformed value: a well-formed value out of its
 * documented range gets `params_validation`, anything that cannot be read gets `invalid_params` (spec 7).
 */
const RULE = { params: { rule: true } } as const

const tokenSymbol = z
  .string()
  .min(1, { error: 'must not be empty' })
  .refine((s) => !s.startsWith('caip19/') && !CAIP19_PATTERN.test(s), {
    error: 'CAIP-19 identifiers are not supported; give a token symbol such as USDC',
    ...RULE,
  })

const LIMIT_MESSAGE = `must be an integer from 1 to ${LIST_LIMIT_MAX}`
const limit = once(LIMIT_MESSAGE)
  .regex(/^(0|[1-9][0-9]*)$/, { error: LIMIT_MESSAGE })
  .transform(Number)
  .refine((n) => n >= 1 && n <= LIST_LIMIT_MAX, { error: LIMIT_MESSAGE, ...RULE })

const network = once('must be a comma-separated list of CAIP-2 chain ids')
  .transform((s) => s.split(','))
  .pipe(z.array(Caip2))

/**
 * Parses the already-decoded query of GET /v1/payments. Unknown parameters are refused so that a typo
 * (`sortdir`, `limits`) is reported rather than silently ignored.
 */
export const PaymentListQuery = z
  .strictObject({
    startTs: timestamp(),
    endTs: timestamp(),
    token_symbol: repeatable(tokenSymbol).optional(),
    asset: once('must be a string').min(1, { error: 'must not be empty' }).optional(),
    network: network.optional(),
    sortBy: z
      .enum(['date', 'amount'], { error: (iss) => (Array.isArray(iss.input) ? REPEATED : 'must be date or amount') })
      .default('date'),
    sortDir: z.enum(['asc', 'desc'], { error: (iss) => (Array.isArray(iss.input) ? REPEATED : 'must be asc or desc') }).default('desc'),
    cursor: once('must be a string').min(1, { error: 'must not be empty' }).optional(),
    limit: limit.default(LIST_LIMIT_DEFAULT),
    status: repeatable(ListingPaymentStatus).optional(),
    referenceId: once('must be a string')
      .min(3, { error: 'must be at least 3 characters long' })
      .max(35, { error: 'must be at most 35 characters long' })
      .refine((s) => REFERENCE_ID_FILTER_PATTERN.test(s), {
        error: 'may contain only ASCII letters, digits, space and / - : . , +',
        ...RULE,
      })
      .optional(),
    merchantId: repeatable(z.string().min(1, { error: 'must not be empty' })).optional(),
  })
  .superRefine((query, ctx) => {
    if (query.startTs === undefined || query.endTs === undefined) return
    if (compareInstants(query.endTs, query.startTs) > 0) return
    ctx.addIssue({ code: 'custom', path: ['endTs'], input: query.endTs, message: 'must be later than startTs', ...RULE })
  })

export type PaymentListQuery = z.infer<typeof PaymentListQuery>

/**
 * Parses the already-decoded query of a plain keyset list (GET /v1/merchants/{merchantId}/unapplied-transfers):
 * a page size and where the previous page ended. Unknown parameters are refused, as the listing's are.
 */
export const PageQuery = z.strictObject({
  cursor: once('must be a string').min(1, { error: 'must not be empty' }).optional(),
  limit: limit.default(LIST_LIMIT_DEFAULT),
})
export type PageQuery = z.infer<typeof PageQuery>
export type PaymentListQueryInput = RawQuery

/**
 * The spec's code for a refused listing query: `params_validation` when every problem is a well-formed
 * value outside a documented rule (a limit of 500, endTs before startTs, a 2-character referenceId),
 * `invalid_params` as soon as one value cannot be read at all (not a date, an unknown parameter).
 */
export function listingQueryErrorCode(error: z.ZodError): 'invalid_params' | 'params_validation' {
  const isRule = (issue: z.core.$ZodIssue) =>
    issue.code === 'too_small' || issue.code === 'too_big' || (issue.code === 'custom' && issue.params?.rule === true)
  return error.issues.every(isRule) ? 'params_validation' : 'invalid_params'
}
