import { describe, expect, it } from 'vitest'
import { canonicalDecimal, DecimalRate, MAX_DECIMAL_LENGTH, parseDecimal } from './decimal.ts'

describe('parseDecimal', () => {
  it('reads a decimal string as a fraction over a power of ten, digit for digit', () => {
    expect(parseDecimal('1.0842')).toEqual({ numerator: 10842n, denominator: 10_000n })
    expect(parseDecimal('7')).toEqual({ numerator: 7n, denominator: 1n })
    expect(parseDecimal('0.000000000000000000000000000001')).toEqual({ numerator: 1n, denominator: 10n ** 30n })
    expect(parseDecimal('123456789012345678901234567890.5')).toEqual({ numerator: 1234567890123456789012345678905n, denominator: 10n })
  })

  it('refuses what is not plain digits with an optional point', () => {
    for (const text of ['', '.5', '5.', '-1', '+1', '1e3', '1,5', ' 1', '0x10', '1.2.3', '1'.repeat(MAX_DECIMAL_LENGTH + 1)]) {
      expect(parseDecimal(text), text).toBeUndefined()
    }
  })
})

describe('canonicalDecimal', () => {
  it('drops leading zeros of the whole part and trailing zeros of the fraction', () => {
    expect(canonicalDecimal('001.0842000')).toBe('1.0842')
    expect(canonicalDecimal('0.50')).toBe('0.5')
    expect(canonicalDecimal('1.000')).toBe('1')
    expect(canonicalDecimal('0010')).toBe('10')
  })
})

describe('DecimalRate', () => {
  const message = (input: unknown) => DecimalRate.safeParse(input).error?.issues[0]?.message

  it('accepts positive decimal strings', () => {
    expect(DecimalRate.parse('0.000001')).toBe('0.000001')
  })

  it('explains each refusal', () => {
    expect(message(1.0842)).toBe('must be a decimal string such as "1.0842", not a JSON number (a float loses digits)')
    expect(message(undefined)).toBe('is required; it must be a decimal string such as "1.0842"')
    expect(message('1,08')).toBe('must be digits with an optional decimal point, such as "1.0842" (no sign, exponent, comma or spaces)')
    expect(message('0.000')).toBe('must be greater than zero')
    expect(message('9'.repeat(MAX_DECIMAL_LENGTH + 1))).toBe(`must have at most ${MAX_DECIMAL_LENGTH} characters`)
  })
})
