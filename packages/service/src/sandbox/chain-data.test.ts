import { describe, expect, it } from 'vitest'
import { confirmedSettlement, sandboxFee, sandboxTokenValue, submittedTransaction } from './chain-data.ts'

describe('sandbox payment data', () => {
  it('converts fiat minor units to USDC minor units with integers only, rounding up', () => {
    expect(sandboxTokenValue('USD', 1999n)).toBe(19_990_000n)
    expect(sandboxTokenValue('JPY', 1000n)).toBe(6_700_000n)
    expect(sandboxTokenValue('KWD', 1n)).toBe(3_250n) // 0.001 KWD
    expect(sandboxTokenValue('EUR', 1n)).toBe(10_800n)
    expect(sandboxTokenValue('USD', 9_223_372_036_854_775_807n)).toBe(92_233_720_368_547_758_070_000n)
  })

  it('takes a 0.4 % fee, rounded up, and settles the rest', () => {
    expect(sandboxFee(10_000n)).toBe(40n)
    expect(sandboxFee(1n)).toBe(1n)
    const paid = confirmedSettlement(submittedTransaction({ currency: 'EUR', amountMinor: 250n, walletName: 'W' }), 250n, new Date(0))
    expect(paid.feeMinor).toBe(1n)
    expect(paid.settlement).toMatchObject({ settled: true, amountMinor: 249n })
  })

  it('gives a buyer a CAIP-10 account and a transaction hash', () => {
    const paid = submittedTransaction({ currency: 'USD', amountMinor: 100n, walletName: 'W' })
    expect(paid.buyerAccount).toMatch(/^eip155:8453:0x[0-9a-f]{40}$/)
    expect(paid.txHash).toMatch(/^0x[0-9a-f]{64}$/)
  })
})
