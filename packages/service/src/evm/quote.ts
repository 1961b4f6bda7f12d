import { currencyByCode } from '@till/contract'
import type { EvmConfig } from './config-schema.ts'
import { canonicalDecimal, parseDecimal } from './decimal.ts'
import type { EndpointRates } from './rate-endpoint.ts'

/** Where a quote's rate came from, kept with the quote so that a disputed amount can be explained. */
export type RateSource = 'peg' | 'fixed' | 'endpoint'

export type ResolvedRate = {
  /** Token units per one major unit of the currency, as a decimal string. */
  value: string
  source: RateSource
  /** When the endpoint said the rate held (RFC 3339); null for a peg or a fixed rate, which hold until the configuration changes. */
  asOf: string | null
}

/**
 * The rate for paying `currency` with the token `tokenSymbol`, or undefined when nothing prices that pair.
 * A peg comes first, as it is what the token is (the configuration refuses a fixed rate that contradicts
 * it); then the operator's fixed rate, which pins a pair whatever the endpoint says; then the endpoint's
 * answer, fetched beforehand with `fetchRates` because it takes a request.
 */
export function rateFor(
  config: Pick<EvmConfig, 'tokens' | 'rates'>,
  currency: string,
  tokenSymbol: string,
  endpoint?: EndpointRates,
): ResolvedRate | undefined {
  const token = config.tokens.find((candidate) => candidate.symbol === tokenSymbol)
  if (token === undefined) return undefined
  if (token.peg === currency) return { value: '1', source: 'peg', asOf: null }
  const fixed = config.rates.fixed.find((rate) => rate.from === currency && rate.to === tokenSymbol)
  if (fixed !== undefined) return { value: fixed.rate, source: 'fixed', asOf: null }
  const fetched = endpoint?.rates.find((rate) => rate.from === currency && rate.to === tokenSymbol)
  if (fetched !== undefined && endpoint !== undefined) return { value: fetched.rate, source: 'endpoint', asOf: endpoint.asOf }
  return undefined
}

/**
 * What a buyer pays in a token for a fiat price, in integers only: the price is minor units (bigint), the
 * rate a decimal string read as a fraction, so no amount ever passes through a float.
 */
export type QuoteInput = {
  amountMinor: bigint
  /** ISO 4217 code; its exponent says how many minor units make one major unit. */
  currency: string
  token: { decimals: number; symbol: string }
  /** Token units per one major unit of the currency, and where that figure came from (see rateFor). */
  rate: ResolvedRate
}

export type TokenQuote = {
  /** Minor units of the token (its smallest unit, 10^-decimals of one token). */
  tokenMinor: bigint
  /** The rate as used, in its shortest spelling. */
  rate: string
  /** For people: "1 EUR = 1.0842 USDC". */
  display: string
  source: RateSource
  asOf: string | null
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b

/** Throws RangeError on an unknown currency, a negative amount or a malformed rate: the caller validated all three. */
export function quoteTokenAmount(input: QuoteInput): TokenQuote {
  const currency = currencyByCode(input.currency)
  if (currency === undefined) throw new RangeError(`unknown ISO 4217 currency code ${input.currency}`)
  if (input.amountMinor < 0n) throw new RangeError(`a price cannot be negative, got ${input.amountMinor}`)
  const { decimals } = input.token
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`token decimals must be a non-negative integer, got ${decimals}`)
  const rate = parseDecimal(input.rate.value)
  if (rate === undefined || rate.numerator === 0n) throw new RangeError(`a rate must be a positive decimal string, got ${input.rate.value}`)

  // amountMinor / 10^exponent major units × rate tokens each × 10^decimals minor units per token, rounded
  // up: the buyer never pays less than the price, as in the sandbox.
  const tokenMinor = ceilDiv(
    input.amountMinor * rate.numerator * 10n ** BigInt(decimals),
    rate.denominator * 10n ** BigInt(currency.exponent),
  )
  const shown = canonicalDecimal(input.rate.value)
  return {
    tokenMinor,
    rate: shown,
    display: `1 ${currency.code} = ${shown} ${input.token.symbol}`,
    source: input.rate.source,
    asOf: input.rate.asOf,
  }
}
