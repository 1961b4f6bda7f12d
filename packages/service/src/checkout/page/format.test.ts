import type { FiatAmount, TokenAmount } from '@till/contract'
import { describe, expect, it } from 'vitest'
import { formatFiat, formatRate, formatRemaining, formatToken, minorToDecimal, shortAccount } from './format.ts'

// Intl separates some currency codes from the number with a non-breaking space.
const plain = (text: string) => text.replace(/\u00a0/g, ' ')

const fiat = (code: string, value: string, decimals: number): FiatAmount => ({
  unit: `iso4217/${code}`,
  value,
  display: { assetSymbol: code, assetName: code, decimals },
})

const USDC_UNIT = 'eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'

const usdc = (value: string): TokenAmount => ({
  unit: USDC_UNIT,
  value,
  display: { assetSymbol: 'USDC', assetName: 'USD Coin', decimals: 6 },
})

const eth = (value: string): TokenAmount => ({
  unit: 'eip155:1/slip44:60',
  value,
  display: { assetSymbol: 'ETH', assetName: 'Ether', decimals: 18 },
})

describe('minorToDecimal', () => {
  it('moves the decimal point by the number of decimals', () => {
    expect(minorToDecimal('1999', 2)).toBe('19.99')
    expect(minorToDecimal('1234', 3)).toBe('1.234')
  })

  it('pads amounts smaller than one whole unit', () => {
    expect(minorToDecimal('5', 2)).toBe('0.05')
    expect(minorToDecimal('0', 2)).toBe('0.00')
    expect(minorToDecimal('1', 18)).toBe('0.000000000000000001')
  })

  it('leaves currencies without minor units whole', () => {
    expect(minorToDecimal('1500', 0)).toBe('1500')
    expect(minorToDecimal('0', 0)).toBe('0')
  })

  it('keeps every digit of a 78-digit value', () => {
    const value = '123456789012345678901234567890123456789012345678901234567890123456789012345678'
    expect(value).toHaveLength(78)
    expect(minorToDecimal(value, 18)).toBe(`${value.slice(0, 60)}.${value.slice(60)}`)
    expect(minorToDecimal(value, 0)).toBe(value)
  })

  it('refuses anything that is not a string of digits', () => {
    for (const value of ['1.5', '-1', '', '1e3', ' 12', '0x10']) {
      expect(() => minorToDecimal(value, 2), value).toThrow(RangeError)
    }
  })
})

describe('formatFiat', () => {
  it('formats euros with the currency symbol and two decimals', () => {
    expect(formatFiat(fiat('EUR', '1999', 2), 'en-US')).toBe('€19.99')
  })

  it('formats a currency without minor units without decimals', () => {
    expect(formatFiat(fiat('JPY', '1500', 0), 'en-US')).toBe('¥1,500')
  })

  it('formats a three-decimal currency with all three decimals', () => {
    expect(plain(formatFiat(fiat('KWD', '1234', 3), 'en-US'))).toBe('KWD 1.234')
  })

  it('formats a value beyond 2^53 exactly, without float rounding', () => {
    // As a float, 9007199254740993.99 would become 9007199254740994.
    expect(formatFiat(fiat('USD', '900719925474099399', 2), 'en-US')).toBe('$9,007,199,254,740,993.99')
  })

  it('follows the locale', () => {
    expect(plain(formatFiat(fiat('EUR', '1999', 2), 'de-DE'))).toBe('19,99 €')
  })
})

describe('formatToken', () => {
  it('trims trailing zeros but keeps at least two decimals', () => {
    expect(formatToken(usdc('13500000'), 'en-US')).toBe('13.50 USDC')
    expect(formatToken(usdc('13000000'), 'en-US')).toBe('13.00 USDC')
    expect(formatToken(usdc('13123450'), 'en-US')).toBe('13.12345 USDC')
  })

  it('shows every significant decimal of the exact amount', () => {
    expect(formatToken(usdc('13123456'), 'en-US')).toBe('13.123456 USDC')
    expect(formatToken(usdc('1'), 'en-US')).toBe('0.000001 USDC')
  })

  it('shows the examples of the one rule: exact, trailing zeros trimmed to two', () => {
    expect(formatToken(usdc('69120000'), 'en-US')).toBe('69.12 USDC')
    expect(formatToken(eth('4200000000000000'), 'en-US')).toBe('0.0042 ETH')
    expect(formatToken(usdc('5000000'), 'en-US')).toBe('5.00 USDC')
    expect(formatToken(eth('1000000000000000000'), 'en-US')).toBe('1.00 ETH')
  })

  it('keeps all 18 decimals of a large 18-decimal amount', () => {
    const eth: TokenAmount = {
      unit: 'eip155:1/slip44:60',
      value: '123456789000000000000000001',
      display: { assetSymbol: 'ETH', assetName: 'Ether', decimals: 18 },
    }
    expect(formatToken(eth, 'en-US')).toBe('123,456,789.000000000000000001 ETH')
  })

  it('falls back to the last part of the unit, in whole minor units, when display is unknown', () => {
    const unknown: TokenAmount = { unit: USDC_UNIT, value: '13500000', display: null }
    expect(formatToken(unknown, 'en-US')).toBe('13,500,000 erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913')
  })
})

describe('formatRate', () => {
  it('divides the token amount by the fiat amount exactly', () => {
    expect(formatRate(fiat('EUR', '1250', 2), usdc('13500000'), 'en-US')).toBe('1 EUR = 1.08 USDC')
    expect(formatRate(fiat('EUR', '1250', 2), usdc('13552500'), 'en-US')).toBe('1 EUR = 1.0842 USDC')
    expect(formatRate(fiat('USD', '500', 2), usdc('5000000'), 'en-US')).toBe('1 USD = 1.00 USDC')
  })

  it('takes each side’s decimals into account', () => {
    expect(formatRate(fiat('JPY', '1500', 0), usdc('10050000'), 'en-US')).toBe('1 JPY = 0.0067 USDC')
    expect(formatRate(fiat('KWD', '1000', 3), usdc('3250000'), 'en-US')).toBe('1 KWD = 3.25 USDC')
    expect(formatRate(fiat('EUR', '2000', 2), eth('6246913580246914'), 'en-US')).toBe('1 EUR = 0.000312346 ETH')
  })

  it('rounds half up to six significant digits for display only', () => {
    // 13.552501 USDC for 12.50 EUR is 1.08420008 USDC per EUR.
    expect(formatRate(fiat('EUR', '1250', 2), usdc('13552501'), 'en-US')).toBe('1 EUR = 1.0842 USDC')
    // 2/3 USDC per USD, and 1/6.
    expect(formatRate(fiat('USD', '300', 2), usdc('2000000'), 'en-US')).toBe('1 USD = 0.666667 USDC')
    expect(formatRate(fiat('USD', '600', 2), usdc('1000000'), 'en-US')).toBe('1 USD = 0.166667 USDC')
  })

  it('keeps two decimals of a large rate, and follows the locale', () => {
    expect(formatRate(fiat('USD', '100', 2), usdc('1234567891234'), 'en-US')).toBe('1 USD = 1,234,567.89 USDC')
    expect(formatRate(fiat('EUR', '1250', 2), usdc('13552500'), 'de-DE')).toBe('1 EUR = 1,0842 USDC')
  })

  it('refuses a zero amount', () => {
    expect(() => formatRate(fiat('EUR', '0', 2), usdc('1'), 'en-US')).toThrow(RangeError)
  })
})

describe('shortAccount', () => {
  it('shortens a CAIP-10 account to the start and end of its address', () => {
    expect(shortAccount('eip155:8453:0x52908400098527886e0f7030069857d2e4169ee7')).toBe('0x5290…9ee7')
  })

  it('shortens a bare address the same way', () => {
    expect(shortAccount('0x52908400098527886e0f7030069857d2e4169ee7')).toBe('0x5290…9ee7')
  })

  it('leaves an address already short enough to read as it is', () => {
    expect(shortAccount('eip155:1:0x1234abcd')).toBe('0x1234abcd')
  })
})

describe('formatRemaining', () => {
  it('shows zero as 0:00', () => {
    expect(formatRemaining(0)).toBe('0:00')
  })

  it('rounds partial seconds up, so the timer never shows less than is left', () => {
    expect(formatRemaining(899_001)).toBe('15:00')
    expect(formatRemaining(899_000)).toBe('14:59')
    expect(formatRemaining(1)).toBe('0:01')
  })

  it('pads seconds to two digits', () => {
    expect(formatRemaining(65_000)).toBe('1:05')
  })

  it('adds hours from one hour on', () => {
    expect(formatRemaining(3_599_000)).toBe('59:59')
    expect(formatRemaining(3_600_000)).toBe('1:00:00')
    expect(formatRemaining(3_725_000)).toBe('1:02:05')
  })

  it('never goes negative', () => {
    expect(formatRemaining(-1)).toBe('0:00')
    expect(formatRemaining(-90_000)).toBe('0:00')
  })
})
