import { z } from 'zod'
import { expecting } from './issues.ts'

/**
 * Exchange rates are decimal strings, never JSON numbers: a float cannot hold 1.0842 exactly, and a quote
 * computed from one could charge a buyer a unit less than the price.
 */
export const DECIMAL_PATTERN = /^[0-9]+(\.[0-9]+)?$/

/** Far beyond any real rate's precision; it only keeps a hostile endpoint from handing us megabytes of digits. */
export const MAX_DECIMAL_LENGTH = 80

/** value = numerator / denominator, the denominator a power of ten. */
export type Fraction = { numerator: bigint; denominator: bigint }

export function parseDecimal(text: string): Fraction | undefined {
  if (text.length > MAX_DECIMAL_LENGTH || !DECIMAL_PATTERN.test(text)) return undefined
  const [whole = '', fraction = ''] = text.split('.')
  return { numerator: BigInt(whole + fraction), denominator: 10n ** BigInt(fraction.length) }
}

/** `001.50` is `1.5`: quotes show one spelling of a rate, whichever the operator or endpoint wrote. */
export function canonicalDecimal(text: string): string {
  const [whole = '', fraction = ''] = text.split('.')
  const integer = whole.replace(/^0+(?=[0-9])/, '')
  const decimals = fraction.replace(/0+$/, '')
  return decimals === '' ? integer : `${integer}.${decimals}`
}

const EXAMPLE = '"1.0842"'

export const DecimalRate = z
  .string({
    error: (issue) =>
      typeof issue.input === 'number'
        ? `must be a decimal string such as ${EXAMPLE}, not a JSON number (a float loses digits)`
        : expecting(`a decimal string such as ${EXAMPLE}`)(issue),
  })
  .max(MAX_DECIMAL_LENGTH, { error: `must have at most ${MAX_DECIMAL_LENGTH} characters` })
  .regex(DECIMAL_PATTERN, {
    error: `must be digits with an optional decimal point, such as ${EXAMPLE} (no sign, exponent, comma or spaces)`,
  })
  // A malformed string was reported by the pattern already; only a well-formed zero is refused here.
  .refine((text) => parseDecimal(text)?.numerator !== 0n, { error: 'must be greater than zero' })
