import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { currencyByCode } from './currency.ts'
import {
  Amount,
  CreatePaymentAmount,
  describeMinorUnitsProblem,
  FiatAmount,
  fiatAmount,
  fiatDisplay,
  FiatUnit,
  MinorUnits,
  PositiveMinorUnits,
  TokenAmount,
} from './money.ts'

function issues(schema: z.ZodType, value: unknown): { path: string; message: string }[] {
  const result = schema.safeParse(value)
  if (result.success) return []
  return result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
}

const usdDisplay = { assetSymbol: 'USD', assetName: 'US Dollar', decimals: 2 }
const create = (value: unknown, unit: unknown = 'iso4217/USD') => CreatePaymentAmount.safeParse({ unit, value })

describe('MinorUnits', () => {
  it.each(['0', '1', '100', '12345', '9'.repeat(78)])('accepts %s', (v) => {
    expect(MinorUnits.safeParse(v).success).toBe(true)
  })

  it.each([
    ['1.00', 'without a decimal point'],
    ['1,00', 'without a decimal point'],
    ['-1', 'sign'],
    ['+1', 'sign'],
    ['1e3', 'exponent'],
    ['1E3', 'exponent'],
    ['01', 'leading zeros'],
    ['00', 'leading zeros'],
    [' 1', 'spaces'],
    ['1 ', 'spaces'],
    ['1 000', 'spaces'],
    ['', 'empty'],
    ['abc', 'only the digits'],
    ['0x10', 'only the digits'],
    ['١٢', 'only the digits'],
  ])('refuses %j, saying %s', (v, hint) => {
    const found = issues(MinorUnits, v)
    expect(found).toHaveLength(1)
    expect(found[0]?.message).toContain(hint)
  })

  it('refuses numbers and says why', () => {
    expect(issues(MinorUnits, 100)[0]?.message).toMatch(/not a JSON number/)
    expect(issues(MinorUnits, null)).toHaveLength(1)
  })

  it('refuses more than 78 digits', () => {
    expect(issues(MinorUnits, '1'.repeat(79))[0]?.message).toMatch(/at most 78 digits/)
  })
})

describe('PositiveMinorUnits', () => {
  it('refuses zero', () => {
    expect(issues(PositiveMinorUnits, '0')[0]?.message).toBe('must be greater than zero')
  })
  it('accepts 1', () => {
    expect(PositiveMinorUnits.safeParse('1').success).toBe(true)
  })
})

describe('describeMinorUnitsProblem', () => {
  it('reports the first problem', () => {
    expect(describeMinorUnitsProblem('-1.5', false)).toMatch(/sign/)
    expect(describeMinorUnitsProblem('0', true)).toBe('must be greater than zero')
    expect(describeMinorUnitsProblem(1.5, false)).toMatch(/string/)
  })
})

describe('FiatUnit', () => {
  it.each(['USD', 'EUR', 'JPY', 'KWD', 'BHD', 'CLP', 'ISK', 'XAF', 'XOF', 'XPF', 'XCD'])('accepts iso4217/%s', (code) => {
    expect(FiatUnit.safeParse(`iso4217/${code}`).success).toBe(true)
  })

  it('refuses lower case with a format message', () => {
    expect(issues(FiatUnit, 'iso4217/usd')).toEqual([{ path: '', message: expect.stringMatching(/upper-case/) }])
  })

  it.each(['XXX', 'XTS', 'XAU', 'XAG', 'XDR', 'BOV', 'CLF', 'USN', 'CHE', 'ABC'])('refuses iso4217/%s, naming the code', (code) => {
    const found = issues(FiatUnit, `iso4217/${code}`)
    expect(found).toHaveLength(1)
    expect(found[0]?.message).toContain(`unknown currency code ${code}`)
  })

  it.each(['USD', 'iso4217:USD', 'iso4217/US', 'iso4217/USDT', 'caip19/eip155:1/slip44:60', ' iso4217/USD'])('refuses %j', (v) => {
    expect(FiatUnit.safeParse(v).success).toBe(false)
  })
})

describe('FiatAmount', () => {
  it.each([
    ['USD', 2],
    ['JPY', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['CLP', 0],
    ['ISK', 0],
  ])('accepts %s with decimals %i', (code, decimals) => {
    const result = FiatAmount.safeParse({
      unit: `iso4217/${code}`,
      value: '1000',
      display: { assetSymbol: code, assetName: 'x', decimals },
    })
    expect(result.success).toBe(true)
  })

  it('refuses display decimals that differ from the currency exponent', () => {
    const found = issues(FiatAmount, {
      unit: 'iso4217/JPY',
      value: '1000',
      display: { assetSymbol: 'JPY', assetName: 'Yen', decimals: 2 },
    })
    expect(found).toEqual([{ path: 'display.decimals', message: 'must be 0, the number of minor-unit digits of JPY' }])
  })

  it('requires every display field', () => {
    expect(FiatAmount.safeParse({ unit: 'iso4217/USD', value: '1', display: { assetSymbol: 'USD', decimals: 2 } }).success).toBe(false)
    expect(FiatAmount.safeParse({ unit: 'iso4217/USD', value: '1' }).success).toBe(false)
    expect(FiatAmount.safeParse({ unit: 'iso4217/USD', value: '1', display: null }).success).toBe(false)
  })

  it('refuses negative or fractional decimals', () => {
    expect(FiatAmount.safeParse({ unit: 'iso4217/USD', value: '1', display: { ...usdDisplay, decimals: -2 } }).success).toBe(false)
    expect(FiatAmount.safeParse({ unit: 'iso4217/USD', value: '1', display: { ...usdDisplay, decimals: 2.5 } }).success).toBe(false)
  })
})

describe('TokenAmount', () => {
  const unit = 'caip19/eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'

  it('accepts a null display', () => {
    expect(TokenAmount.safeParse({ unit, value: '1000000', display: null }).success).toBe(true)
  })

  it('accepts a display with the optional fields', () => {
    const display = {
      assetSymbol: 'USDC',
      assetName: 'USD Coin',
      decimals: 6,
      iconUrl: 'https://x/i.png',
      networkName: 'Base',
      networkIconUrl: 'https://x/b.png',
    }
    expect(TokenAmount.safeParse({ unit, value: '1', display }).success).toBe(true)
  })

  it('requires display to be present, even if null', () => {
    expect(TokenAmount.safeParse({ unit, value: '1' }).success).toBe(false)
  })

  it('requires symbol, name and decimals in a display object', () => {
    expect(TokenAmount.safeParse({ unit, value: '1', display: { assetSymbol: 'USDC', assetName: 'USD Coin' } }).success).toBe(false)
  })

  it('accepts token values past 2^64 (up to uint256)', () => {
    expect(TokenAmount.safeParse({ unit, value: (2n ** 256n - 1n).toString(), display: null }).success).toBe(true)
  })

  it('refuses a fiat unit', () => {
    expect(TokenAmount.safeParse({ unit: 'iso4217/USD', value: '1', display: null }).success).toBe(false)
  })
})

describe('Amount', () => {
  it('accepts either kind', () => {
    expect(Amount.safeParse({ unit: 'iso4217/USD', value: '1', display: usdDisplay }).success).toBe(true)
    expect(Amount.safeParse({ unit: 'caip19/eip155:1/slip44:60', value: '1', display: null }).success).toBe(true)
  })

  it('reports the fiat branch problem, not a bare union failure', () => {
    expect(issues(Amount, { unit: 'iso4217/USD', value: '1', display: { ...usdDisplay, decimals: 3 } })).toEqual([
      { path: 'display.decimals', message: 'must be 2, the number of minor-unit digits of USD' },
    ])
  })

  it('reports the token branch problem', () => {
    expect(issues(Amount, { unit: 'caip19/eip155:1/slip44:60', value: '1.5', display: null })).toEqual([
      { path: 'value', message: 'must be an integer count of minor units, without a decimal point' },
    ])
  })

  it('refuses a unit of neither kind', () => {
    expect(Amount.safeParse({ unit: 'USD', value: '1', display: null }).success).toBe(false)
  })
})

describe('CreatePaymentAmount', () => {
  it.each(['1', '100', '12345', '9223372036854775807'])('accepts %s', (v) => {
    expect(create(v).success).toBe(true)
  })

  it.each(['1.00', '-1', '+1', '1e3', '01', '0', ' 1', '1 ', '', '0.5', 'NaN', 'Infinity'])('refuses %j', (v) => {
    expect(create(v).success).toBe(false)
  })

  it.each([100, 1.5, null, true])('refuses the non-string %j', (v) => {
    expect(create(v).success).toBe(false)
  })

  it('refuses values past the SQL bigint range and says so', () => {
    const found = issues(CreatePaymentAmount, { unit: 'iso4217/USD', value: '9223372036854775808' })
    expect(found).toEqual([{ path: 'value', message: expect.stringMatching(/9223372036854775807.*bigint/) }])
    expect(create('99999999999999999999999').success).toBe(false)
  })

  it.each(['iso4217/usd', 'iso4217/XXX', 'iso4217/XTS', 'iso4217/XAU', 'iso4217/BOV', 'caip19/eip155:1/slip44:60'])(
    'refuses the unit %s',
    (unit) => {
      const found = issues(CreatePaymentAmount, { unit, value: '100' })
      expect(found.map((i) => i.path)).toEqual(['unit'])
    },
  )

  it.each(['JPY', 'KWD', 'USD', 'BHD', 'CLP', 'ISK'])('accepts %s', (code) => {
    expect(create('1', `iso4217/${code}`).success).toBe(true)
  })

  it('requires both fields', () => {
    expect(CreatePaymentAmount.safeParse({ unit: 'iso4217/USD' }).success).toBe(false)
    expect(CreatePaymentAmount.safeParse({ value: '1' }).success).toBe(false)
  })
})

describe('fiatDisplay and fiatAmount', () => {
  it('derives display from the currency', () => {
    const kwd = currencyByCode('KWD')
    expect(kwd).toBeDefined()
    if (kwd) expect(fiatDisplay(kwd)).toEqual({ assetSymbol: 'KWD', assetName: 'Kuwaiti Dinar', decimals: 3 })
  })

  it('builds a FiatAmount that the schema accepts', () => {
    const amount = fiatAmount('JPY', 1500n)
    expect(amount).toEqual({ unit: 'iso4217/JPY', value: '1500', display: { assetSymbol: 'JPY', assetName: 'Yen', decimals: 0 } })
    expect(FiatAmount.safeParse(amount).success).toBe(true)
    expect(fiatAmount('USD', 0n).value).toBe('0')
  })

  it('keeps bigint precision', () => {
    expect(fiatAmount('USD', 9223372036854775807n).value).toBe('9223372036854775807')
  })

  it('throws on unknown codes and negative values', () => {
    expect(() => fiatAmount('XXX', 1n)).toThrow(RangeError)
    expect(() => fiatAmount('usd', 1n)).toThrow(RangeError)
    expect(() => fiatAmount('USD', -1n)).toThrow(RangeError)
  })
})
