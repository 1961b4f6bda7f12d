import { z } from 'zod'
import { DecimalRate } from './decimal.ts'
import { type Problem, problemLines, problemsOf } from './issues.ts'

/**
 * Rates from an operator-run endpoint (`rates.endpoint` in the configuration). Till sends a GET with
 * `Accept: application/json` and expects 200 with:
 *
 *   { "rates": [{ "from": "EUR", "to": "USDC", "rate": "1.0842" }], "asOf": "2025-06-01T12:00:00Z" }
 *
 * `from` is an ISO 4217 code, `to` a token symbol, `rate` the token units one major unit of `from` buys,
 * as a decimal string (never a JSON number), and `asOf` an RFC 3339 timestamp with an offset. Pairs Till
 * has no use for (a currency or token it does not take) are kept but never looked up; fields beyond these
 * are ignored, so the endpoint can grow.
 */

export type EndpointRates = {
  endpoint: string
  asOf: string
  rates: readonly { from: string; to: string; rate: string }[]
}

const code = (example: string) =>
  z.string({ error: `must be a string such as "${example}"` }).min(1, { error: `must not be empty, e.g. "${example}"` })
const EndpointRate = z.object(
  { from: code('EUR'), to: code('USDC'), rate: DecimalRate },
  { error: 'must be an object { "from": "EUR", "to": "USDC", "rate": "1.0842" }' },
)

const RatesAnswer = z
  .object(
    {
      rates: z.array(EndpointRate, { error: 'must be a list of { "from", "to", "rate" } objects' }),
      asOf: z.iso.datetime({ offset: true, error: 'must be an RFC 3339 timestamp with an offset, e.g. 2025-06-01T12:00:00Z' }),
    },
    { error: 'must be a JSON object { "rates": [...], "asOf": "<RFC 3339 timestamp>" }' },
  )
  .superRefine((answer, ctx) => {
    // Two rates for one pair leave the quote to chance.
    const seen = new Map<string, number>()
    answer.rates.forEach(({ from, to }, index) => {
      const first = seen.get(`${from} ${to}`)
      if (first === undefined) seen.set(`${from} ${to}`, index)
      else ctx.addIssue({ code: 'custom', path: ['rates', index], message: `${from} to ${to} is already rates[${first}]` })
    })
  })

/** The endpoint could not be reached or answered something unusable; the message says which. */
export class RateEndpointError extends Error {
  override name = 'RateEndpointError'

  constructor(
    readonly endpoint: string,
    readonly problems: readonly Problem[],
  ) {
    super(problemLines(`rate endpoint ${endpoint}`, problems).join('\n'))
  }
}

// undici says only "fetch failed"; the cause says what failed (ECONNREFUSED, a timeout...).
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message
}

const DEFAULT_TIMEOUT_MS = 5_000

/** `fetch` is a parameter so that the caller decides how the endpoint is reached (and tests point it at 127.0.0.1). */
export async function fetchRates(
  endpoint: string,
  fetch: typeof globalThis.fetch,
  options: { timeoutMs?: number } = {},
): Promise<EndpointRates> {
  const fail = (message: string): never => {
    throw new RateEndpointError(endpoint, [{ path: '', message }])
  }
  let text = ''
  try {
    const response = await fetch(endpoint, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    })
    text = await response.text()
    if (response.status !== 200) fail(`answered HTTP ${response.status}; it must answer 200 with { "rates": [...], "asOf": "..." }`)
  } catch (error) {
    if (error instanceof RateEndpointError) throw error
    fail(`could not be fetched (${reasonOf(error)})`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    fail(`did not answer JSON (${reasonOf(error)})`)
  }
  const result = RatesAnswer.safeParse(json)
  if (!result.success) throw new RateEndpointError(endpoint, problemsOf(result.error))
  return { endpoint, asOf: result.data.asOf, rates: result.data.rates }
}

// An endpoint's rates are reused for a minute: a checkout page load must not wait on it every time.
const RATES_TTL_MS = 60_000

/**
 * The configured endpoint's latest rates, fetched at most once a minute; undefined when none is configured
 * or it fails. The options it prices are then left out until it answers again; pegged and fixed ones are
 * still offered.
 */
export function cachedEndpointRates(deps: {
  endpoint: string | undefined
  now: () => number
  onFailure: (error: unknown) => void
}): () => Promise<EndpointRates | undefined> {
  let cached: { at: number; rates: EndpointRates } | undefined
  return async () => {
    if (!deps.endpoint) return undefined
    const now = deps.now()
    if (cached && now - cached.at < RATES_TTL_MS) return cached.rates
    try {
      cached = { at: now, rates: await fetchRates(deps.endpoint, fetch) }
    } catch (error) {
      deps.onFailure(error)
      return undefined
    }
    return cached.rates
  }
}
