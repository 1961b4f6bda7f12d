import { ISO4217_CURRENCIES } from './iso4217.data.ts'

export type Currency = { code: string; number: string; exponent: number; name: string }

const BY_CODE: ReadonlyMap<string, Currency> = new Map(ISO4217_CURRENCIES.map((c) => [c.code, c]))

/** Every currency the API accepts, in code order. */
export const CURRENCIES: readonly Currency[] = ISO4217_CURRENCIES

/** Exact match only: `usd` is not `USD`, because the wire format is case-sensitive. */
export function currencyByCode(code: string): Currency | undefined {
  return BY_CODE.get(code)
}

export const FIAT_UNIT_PATTERN = /^iso4217\/([A-Z]{3})$/

export function parseFiatUnit(unit: string): Currency | undefined {
  const code = FIAT_UNIT_PATTERN.exec(unit)?.[1]
  return code === undefined ? undefined : currencyByCode(code)
}

export function fiatUnit(code: string): string {
  return `iso4217/${code}`
}

/**
 * Renders minor units as a decimal string by string surgery, so that amounts past 2^53 keep every digit.
 */
export function formatMinorUnits(value: bigint, exponent: number): string {
  if (!Number.isInteger(exponent) || exponent < 0) {
    throw new RangeError(`exponent must be a non-negative integer, got ${exponent}`)
  }
  const negative = value < 0n
  const digits = (negative ? -value : value).toString()
  const sign = negative ? '-' : ''
  if (exponent === 0) return sign + digits
  const padded = digits.padStart(exponent + 1, '0')
  const whole = padded.slice(0, padded.length - exponent)
  const fraction = padded.slice(padded.length - exponent)
  return `${sign}${whole}.${fraction}`
}
