import { describe, expect, it } from 'vitest'
import { LISTING_TERMINALITY } from './status-tables.test-data.ts'
import {
  Buyer,
  DateTime,
  Fees,
  MerchantSummary,
  Payment,
  PaymentListResponse,
  PaymentListStats,
  RevenueTotal,
  Settlement,
  Transaction,
} from './listing.ts'

const usd = (value: string) => ({ unit: 'iso4217/USD', value, display: { assetSymbol: 'USD', assetName: 'US Dollar', decimals: 2 } })
const usdc = (value: string) => ({
  unit: 'caip19/eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  value,
  display: { assetSymbol: 'USDC', assetName: 'USD Coin', decimals: 6 },
})

const base = {
  paymentId: 'pay_1',
  merchant: { id: 'm_1', name: 'Shop', iconUrl: null },
  referenceId: 'order-1',
  status: 'succeeded',
  isTerminal: true,
  fiatAmount: usd('1000'),
  tokenAmount: usdc('10000000'),
  buyer: { accountCaip10: 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb', accountProviderName: 'Wallet' },
  transaction: { networkId: '8453', hash: '0xdead', nonce: 7 },
  fees: { total: usd('4'), percentage: '0.4' },
  settlement: { settled: true, amount: usdc('9960000'), txHash: '0xbeef' },
  createdAt: '2026-02-18T10:00:00Z',
  lastUpdatedAt: '2026-02-18T10:05:00.123+01:00',
  settledAt: '2026-02-18T11:00:00Z',
}

const paymentIssues = (value: unknown) => {
  const result = Payment.safeParse(value)
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
}

describe('Settlement', () => {
  it('accepts the two shapes', () => {
    expect(Settlement.safeParse({ settled: false }).success).toBe(true)
    expect(Settlement.safeParse({ settled: true, amount: usd('1'), txHash: '0x1' }).success).toBe(true)
  })

  it.each([
    { settled: false, amount: usd('1') },
    { settled: false, txHash: '0x1' },
    { settled: false, amount: usd('1'), txHash: '0x1' },
    { settled: false, note: 'x' },
  ])('refuses any other field when settled is false: %j', (value) => {
    expect(Settlement.safeParse(value).success).toBe(false)
  })

  it.each([
    { settled: true },
    { settled: true, amount: usd('1') },
    { settled: true, txHash: '0x1' },
    { settled: true, amount: usd('1'), txHash: '' },
  ])('requires amount and txHash when settled is true: %j', (value) => {
    expect(Settlement.safeParse(value).success).toBe(false)
  })

  it('refuses a missing or non-boolean settled', () => {
    expect(Settlement.safeParse({}).success).toBe(false)
    expect(Settlement.safeParse({ settled: 'true', amount: usd('1'), txHash: '0x1' }).success).toBe(false)
  })

  it('checks the settled amount as an Amount', () => {
    expect(Settlement.safeParse({ settled: true, amount: { ...usd('1'), value: '1.5' }, txHash: '0x1' }).success).toBe(false)
  })
})

describe('Payment', () => {
  it('accepts a full listing item', () => {
    expect(Payment.parse(base)).toEqual(base)
  })

  it('accepts the minimal item', () => {
    const minimal = {
      paymentId: 'p',
      merchant: { id: 'm' },
      referenceId: 'r',
      status: 'requires_action',
      isTerminal: false,
      createdAt: '2026-02-18T10:00:00Z',
      lastUpdatedAt: '2026-02-18T10:00:00Z',
    }
    expect(Payment.parse(minimal)).toEqual(minimal)
  })

  it.each(['paymentId', 'merchant', 'referenceId', 'status', 'isTerminal', 'createdAt', 'lastUpdatedAt'])('requires %s', (field) => {
    const { [field]: _omitted, ...rest } = base as Record<string, unknown>
    expect(Payment.safeParse(rest).success).toBe(false)
  })

  it.each(LISTING_TERMINALITY)('requires isTerminal to be %2$s for %1$s', (status, terminal) => {
    const item = { ...base, status, settlement: undefined, settledAt: undefined }
    expect(Payment.safeParse({ ...item, isTerminal: terminal }).success).toBe(true)
    expect(paymentIssues({ ...item, isTerminal: !terminal })).toEqual([
      { path: 'isTerminal', message: `must be ${terminal} when status is ${status}` },
    ])
  })

  it('allows settledAt only when settlement.settled is true', () => {
    const message = 'may be present only when settlement.settled is true'
    expect(paymentIssues({ ...base, settlement: { settled: false } })).toEqual([{ path: 'settledAt', message }])
    expect(paymentIssues({ ...base, settlement: undefined })).toEqual([{ path: 'settledAt', message }])
    expect(Payment.safeParse({ ...base, settlement: { settled: false }, settledAt: undefined }).success).toBe(true)
    expect(Payment.safeParse({ ...base, settledAt: undefined }).success).toBe(true)
  })

  it.each(['createdAt', 'lastUpdatedAt', 'settledAt'])('requires %s to be an ISO 8601 date-time with offset', (field) => {
    for (const bad of ['2026-02-18T10:00:00', '2026-02-18', '2026-02-30T10:00:00Z', '18/02/2026', '2026-02-18T10:00Z', 1771408800]) {
      expect(Payment.safeParse({ ...base, [field]: bad }).success).toBe(false)
    }
    expect(Payment.safeParse({ ...base, [field]: '2026-02-18T10:00:00.5-05:30' }).success).toBe(true)
  })

  it('refuses a fiat amount whose display is wrong', () => {
    const bad = { ...base, fiatAmount: { ...usd('1000'), display: { assetSymbol: 'USD', assetName: 'US Dollar', decimals: 0 } } }
    expect(paymentIssues(bad).map((i) => i.path)).toEqual(['fiatAmount.display.decimals'])
  })

  it('refuses a token unit as the fiat amount', () => {
    expect(Payment.safeParse({ ...base, fiatAmount: usdc('1') }).success).toBe(false)
  })
})

describe('parts of a listing item', () => {
  it('MerchantSummary needs a non-empty id; name and iconUrl are optional, iconUrl nullable', () => {
    expect(MerchantSummary.safeParse({ id: 'm' }).success).toBe(true)
    expect(MerchantSummary.safeParse({ id: 'm', iconUrl: null }).success).toBe(true)
    expect(MerchantSummary.safeParse({ id: '' }).success).toBe(false)
    expect(MerchantSummary.safeParse({ name: 'Shop' }).success).toBe(false)
    expect(MerchantSummary.safeParse({ id: 'm', name: null }).success).toBe(false)
  })

  it('Buyer needs a CAIP-10 account', () => {
    expect(Buyer.safeParse({ accountCaip10: 'eip155:1:0xabc' }).success).toBe(true)
    expect(Buyer.safeParse({ accountCaip10: '0xabc' }).success).toBe(false)
    expect(Buyer.safeParse({}).success).toBe(false)
  })

  it('Transaction needs a numeric networkId and a non-negative integer nonce', () => {
    expect(Transaction.safeParse({ networkId: '1' }).success).toBe(true)
    expect(Transaction.safeParse({ networkId: '8453', hash: '0x1', nonce: 0 }).success).toBe(true)
    for (const networkId of ['eip155:1', '0x1', '', '1.0', 1]) expect(Transaction.safeParse({ networkId }).success).toBe(false)
    for (const nonce of [-1, 1.5, '1']) expect(Transaction.safeParse({ networkId: '1', nonce }).success).toBe(false)
  })

  it('Fees needs a total; percentage is a decimal string', () => {
    expect(Fees.safeParse({ total: usd('4') }).success).toBe(true)
    expect(Fees.safeParse({ total: usdc('4'), fixed: usd('1'), percentage: '0.4' }).success).toBe(true)
    for (const percentage of ['0.4', '1', '12.25', '0']) expect(Fees.safeParse({ total: usd('4'), percentage }).success).toBe(true)
    for (const percentage of ['.4', '0,4', '-0.4', '0.4%', '04', '1.', 0.4, '1e-1']) {
      expect(Fees.safeParse({ total: usd('4'), percentage }).success).toBe(false)
    }
    expect(Fees.safeParse({ fixed: usd('1') }).success).toBe(false)
  })

  it('DateTime takes Z or a numeric offset but not a local time', () => {
    expect(DateTime.safeParse('2026-02-18T12:00:00Z').success).toBe(true)
    expect(DateTime.safeParse('2026-02-18T12:00:00+09:00').success).toBe(true)
    expect(DateTime.safeParse('2024-02-29T00:00:00Z').success).toBe(true)
    expect(DateTime.safeParse('2026-02-18T12:00:00').success).toBe(false)
    expect(DateTime.safeParse('2026-02-18 12:00:00Z').success).toBe(false)
    expect(DateTime.safeParse('2026-02-18T12:00:00+0900').success).toBe(false)
  })
})

describe('statistics and the list response', () => {
  it('RevenueTotal has a number in standard units and an ISO 4217 code', () => {
    expect(RevenueTotal.safeParse({ amount: 12.5, currency: 'USD' }).success).toBe(true)
    expect(RevenueTotal.safeParse({ amount: 0, currency: 'JPY' }).success).toBe(true)
    for (const currency of ['usd', 'US', 'iso4217/USD', 'XXX']) expect(RevenueTotal.safeParse({ amount: 1, currency }).success).toBe(false)
    expect(RevenueTotal.safeParse({ amount: '12.50', currency: 'USD' }).success).toBe(false)
  })

  it('PaymentListStats counts are non-negative integers', () => {
    const stats = { totalRevenue: [{ amount: 10, currency: 'EUR' }], totalTransactions: 3, totalCustomers: 2 }
    expect(PaymentListStats.parse(stats)).toEqual(stats)
    expect(PaymentListStats.safeParse({ ...stats, totalTransactions: -1 }).success).toBe(false)
    expect(PaymentListStats.safeParse({ ...stats, totalCustomers: 1.5 }).success).toBe(false)
    expect(PaymentListStats.safeParse({ totalTransactions: 0, totalCustomers: 0 }).success).toBe(false)
  })

  it('PaymentListResponse needs data, nextCursor (string or null) and stats', () => {
    const stats = { totalRevenue: [], totalTransactions: 0, totalCustomers: 0 }
    expect(PaymentListResponse.safeParse({ data: [base], nextCursor: 'abc', stats }).success).toBe(true)
    expect(PaymentListResponse.safeParse({ data: [], nextCursor: null, stats }).success).toBe(true)
    expect(PaymentListResponse.safeParse({ data: [], stats }).success).toBe(false)
    expect(PaymentListResponse.safeParse({ nextCursor: null, stats }).success).toBe(false)
    expect(PaymentListResponse.safeParse({ data: [], nextCursor: null }).success).toBe(false)
    expect(PaymentListResponse.safeParse({ data: [{ ...base, isTerminal: false }], nextCursor: null, stats }).success).toBe(false)
  })
})
