import { MAX_CREATE_PAYMENT_VALUE } from '@till/contract'
import { describe, expect, it } from 'vitest'
import { sandboxTokenValue } from '../sandbox/chain-data.ts'
import { parseEvmConfig } from './config.ts'
import { parseDecimal } from './decimal.ts'
import { quoteTokenAmount, type ResolvedRate, rateFor } from './quote.ts'
import type { EndpointRates } from './rate-endpoint.ts'

const fixed = (value: string): ResolvedRate => ({ value, source: 'fixed', asOf: null })
const USDC = { symbol: 'USDC', decimals: 6 }
const DAI = { symbol: 'DAI', decimals: 18 }

const tokens = (amountMinor: bigint, currency: string, rate: string, token = USDC) =>
  quoteTokenAmount({ amountMinor, currency, token, rate: fixed(rate) }).tokenMinor

describe('quoteTokenAmount', () => {
  it('converts with the exponent of each currency: USD (2), JPY (0), KWD (3)', () => {
    expect(tokens(1_999n, 'USD', '1')).toBe(19_990_000n)
    expect(tokens(1_000n, 'JPY', '0.006712')).toBe(6_712_000n)
    expect(tokens(1_234n, 'KWD', '3.25')).toBe(4_010_500n)
  })

  it('says what was used: the rate, a line for people, and where the rate came from', () => {
    const asOf = '2025-06-01T12:00:00Z'
    const quote = quoteTokenAmount({
      amountMinor: 1_000n,
      currency: 'EUR',
      token: USDC,
      rate: { value: '001.08420', source: 'endpoint', asOf },
    })
    expect(quote).toEqual({ tokenMinor: 10_842_000n, rate: '1.0842', display: '1 EUR = 1.0842 USDC', source: 'endpoint', asOf })
  })

  it('gives an 18-decimal token every digit', () => {
    expect(tokens(1n, 'EUR', '1.0842', DAI)).toBe(10_842_000_000_000_000n)
    expect(tokens(1n, 'KWD', '3.254372891044718203941', DAI)).toBe(3_254_372_891_044_719n)
  })

  it('stays exact far beyond 2^53', () => {
    expect(tokens(MAX_CREATE_PAYMENT_VALUE, 'USD', '1', DAI)).toBe(MAX_CREATE_PAYMENT_VALUE * 10n ** 16n)
    expect(tokens(MAX_CREATE_PAYMENT_VALUE, 'JPY', '0.006712', DAI)).toBe(MAX_CREATE_PAYMENT_VALUE * 6_712n * 10n ** 12n)
    // Worked out apart (Python fractions): 9223372036854775807 yen × 0.0067123456789 USDC × 10^6 is
    // 61910461436469245934944.7103723 micro-USDC, rounded up.
    expect(tokens(MAX_CREATE_PAYMENT_VALUE, 'JPY', '0.0067123456789')).toBe(61_910_461_436_469_245_934_945n)
  })

  it('rounds up only past an exact boundary, so the buyer never pays less than the price', () => {
    const whole = { symbol: 'WHOLE', decimals: 0 }
    expect(tokens(100n, 'USD', '1', whole)).toBe(1n)
    expect(tokens(101n, 'USD', '1', whole)).toBe(2n)
    expect(tokens(199n, 'USD', '1', whole)).toBe(2n)
    expect(tokens(200n, 'USD', '1', whole)).toBe(2n)
    expect(tokens(1n, 'JPY', '0.0067123')).toBe(6_713n)
    expect(tokens(1n, 'JPY', '0.006712')).toBe(6_712n)
    expect(tokens(0n, 'USD', '1.0842')).toBe(0n)
  })

  it('never rounds a positive price down to nothing, however small the rate', () => {
    expect(tokens(1n, 'USD', `0.${'0'.repeat(40)}1`, DAI)).toBe(1n)
  })

  it('takes the smallest amount that covers the price, for rates with many decimals', () => {
    const rates = ['1.0842', '0.000123456789012345678901', '3.254372891044718203941', '123456.789', '0.5']
    for (const rate of rates) {
      const { numerator, denominator } = parseDecimal(rate) ?? { numerator: 0n, denominator: 1n }
      for (const [currency, exponent] of [
        ['USD', 2n],
        ['JPY', 0n],
        ['KWD', 3n],
      ] as const) {
        for (const amount of [1n, 7n, 999n, 123_456_789n, 2n ** 60n + 3n]) {
          const minor = tokens(amount, currency, rate, DAI)
          const price = amount * numerator * 10n ** 18n
          const paid = (units: bigint) => units * denominator * 10n ** exponent
          expect(paid(minor) >= price, `${amount} ${currency} at ${rate}`).toBe(true)
          expect(paid(minor - 1n) < price, `${amount} ${currency} at ${rate}`).toBe(true)
        }
      }
    }
  })

  it('agrees with the sandbox, which prices in the same way', () => {
    for (const amount of [1n, 99n, 1_999n, 123_456_789n]) {
      expect(tokens(amount, 'EUR', '1.08')).toBe(sandboxTokenValue('EUR', amount))
      expect(tokens(amount, 'JPY', '0.0067')).toBe(sandboxTokenValue('JPY', amount))
      expect(tokens(amount, 'KWD', '3.25')).toBe(sandboxTokenValue('KWD', amount))
    }
  })

  it('refuses what callers should have validated: an unknown currency, a negative price, a bad rate', () => {
    expect(() => tokens(1n, 'usd', '1')).toThrow('unknown ISO 4217 currency code usd')
    expect(() => tokens(-1n, 'USD', '1')).toThrow('a price cannot be negative, got -1')
    expect(() => tokens(1n, 'USD', '1e3')).toThrow('a rate must be a positive decimal string, got 1e3')
    expect(() => tokens(1n, 'USD', '0.00')).toThrow('a rate must be a positive decimal string, got 0.00')
    expect(() => tokens(1n, 'USD', '1', { symbol: 'X', decimals: 1.5 })).toThrow('token decimals must be a non-negative integer, got 1.5')
  })
})

const config = parseEvmConfig(
  {
    networks: [{ id: 'eip155:31337', rpcUrl: 'http://127.0.0.1:8545', confirmations: 1 }],
    tokens: [
      { id: 'eip155:31337/erc20:0x5fbdb2315678afecb367f032d93f642f64180aa3', symbol: 'USDC', name: 'USD Coin', decimals: 6, peg: 'USD' },
      { id: 'eip155:31337/erc20:0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', symbol: 'WETH', name: 'Wrapped Ether', decimals: 18 },
    ],
    rates: { fixed: [{ from: 'EUR', to: 'USDC', rate: '1.0842' }] },
  },
  'rates.test',
)

const asOf = '2025-06-01T12:00:00+02:00'
const endpoint: EndpointRates = {
  endpoint: 'http://127.0.0.1/rates',
  asOf,
  rates: [
    { from: 'EUR', to: 'USDC', rate: '1.09' },
    { from: 'USD', to: 'USDC', rate: '0.98' },
    { from: 'USD', to: 'WETH', rate: '0.000285' },
  ],
}

describe('rateFor', () => {
  it('prices a pegged stablecoin 1:1 in its currency, whatever the endpoint says', () => {
    expect(rateFor(config, 'USD', 'USDC')).toEqual({ value: '1', source: 'peg', asOf: null })
    expect(rateFor(config, 'USD', 'USDC', endpoint)).toEqual({ value: '1', source: 'peg', asOf: null })
  })

  it("uses the operator's fixed rate before the endpoint's", () => {
    expect(rateFor(config, 'EUR', 'USDC', endpoint)).toEqual({ value: '1.0842', source: 'fixed', asOf: null })
  })

  it("falls back to the endpoint's rate, with the time it gave", () => {
    expect(rateFor(config, 'USD', 'WETH', endpoint)).toEqual({ value: '0.000285', source: 'endpoint', asOf })
  })

  it('prices nothing it has no rate for', () => {
    expect(rateFor(config, 'USD', 'WETH')).toBeUndefined()
    expect(rateFor(config, 'GBP', 'USDC', endpoint)).toBeUndefined()
    expect(rateFor(config, 'USD', 'DAI', endpoint)).toBeUndefined()
  })
})
