import { describe, expect, it } from 'vitest'
import { CURRENCIES, currencyByCode, fiatUnit, formatMinorUnits, parseFiatUnit } from './currency.ts'
import { ISO4217_CURRENCIES, ISO4217_PUBLISHED } from './iso4217.data.ts'

describe('ISO 4217 table', () => {
  it('is sorted by code and has no duplicates', () => {
    const codes = ISO4217_CURRENCIES.map((c) => c.code)
    expect(codes).toEqual([...new Set(codes)].sort())
  })

  it('comes from the 2024-06-25 list', () => {
    expect(ISO4217_PUBLISHED).toBe('2024-06-25')
  })

  it('has well-formed rows', () => {
    for (const c of CURRENCIES) {
      expect(c.code).toMatch(/^[A-Z]{3}$/)
      expect(c.number).toMatch(/^[0-9]{3}$/)
      expect(Number.isInteger(c.exponent) && c.exponent >= 0 && c.exponent <= 4).toBe(true)
      expect(c.name.trim()).toBe(c.name)
      expect(c.name.length).toBeGreaterThan(0)
    }
  })

  it.each([
    ['USD', 2, '840', 'US Dollar'],
    ['EUR', 2, '978', 'Euro'],
    ['JPY', 0, '392', 'Yen'],
    ['KWD', 3, '414', 'Kuwaiti Dinar'],
    ['BHD', 3, '048', 'Bahraini Dinar'],
    ['CLP', 0, '152', 'Chilean Peso'],
    ['ISK', 0, '352', 'Iceland Krona'],
    ['XAF', 0, '950', 'CFA Franc BEAC'],
    ['XOF', 0, '952', 'CFA Franc BCEAO'],
    ['XPF', 0, '953', 'CFP Franc'],
    ['XCD', 2, '951', 'East Caribbean Dollar'],
    ['AED', 2, '784', 'UAE Dirham'],
  ])('knows %s with exponent %i', (code, exponent, number, name) => {
    expect(currencyByCode(code)).toEqual({ code, exponent, number, name })
  })

  it.each(['BOV', 'CLF', 'COU', 'MXV', 'USN', 'UYI', 'CHE', 'CHW'])('leaves out the fund %s', (code) => {
    expect(currencyByCode(code)).toBeUndefined()
  })

  it.each(['XAU', 'XAG', 'XPT', 'XPD', 'XDR', 'XSU', 'XUA', 'XBA', 'XBB', 'XBC', 'XBD', 'XTS', 'XXX'])(
    'leaves out %s, which has no minor unit',
    (code) => {
      expect(currencyByCode(code)).toBeUndefined()
    },
  )

  it('trims names that carry stray whitespace in the source list', () => {
    expect(currencyByCode('KMF')?.name).toBe('Comorian Franc')
  })
})

describe('currencyByCode', () => {
  it('is exact and case-sensitive', () => {
    expect(currencyByCode('usd')).toBeUndefined()
    expect(currencyByCode('Usd')).toBeUndefined()
    expect(currencyByCode(' USD')).toBeUndefined()
    expect(currencyByCode('USDX')).toBeUndefined()
    expect(currencyByCode('')).toBeUndefined()
  })
})

describe('fiat units', () => {
  it('builds and parses iso4217/CODE', () => {
    expect(fiatUnit('EUR')).toBe('iso4217/EUR')
    expect(parseFiatUnit('iso4217/EUR')?.exponent).toBe(2)
    expect(parseFiatUnit(fiatUnit('JPY'))?.code).toBe('JPY')
  })

  it.each([
    'iso4217/usd',
    'ISO4217/USD',
    'iso4217/XXX',
    'iso4217/XTS',
    'iso4217/BOV',
    'iso4217/USDT',
    'USD',
    'iso4217/',
    'caip19/eip155:1/slip44:60',
    'iso4217/USD ',
  ])('refuses %j', (unit) => {
    expect(parseFiatUnit(unit)).toBeUndefined()
  })
})

describe('formatMinorUnits', () => {
  it.each([
    [12345n, 2, '123.45'],
    [5n, 3, '0.005'],
    [100n, 0, '100'],
    [0n, 2, '0.00'],
    [0n, 0, '0'],
    [1n, 2, '0.01'],
    [10n, 2, '0.10'],
    [-12345n, 2, '-123.45'],
    [-5n, 3, '-0.005'],
    [-100n, 0, '-100'],
    [9223372036854775807n, 2, '92233720368547758.07'],
    [123456789012345678901234567890n, 18, '123456789012.345678901234567890'],
  ])('(%s, %i) → %s', (value, exponent, expected) => {
    expect(formatMinorUnits(value, exponent)).toBe(expected)
  })

  it('rejects a negative or fractional exponent', () => {
    expect(() => formatMinorUnits(1n, -1)).toThrow(RangeError)
    expect(() => formatMinorUnits(1n, 1.5)).toThrow(RangeError)
  })
})
