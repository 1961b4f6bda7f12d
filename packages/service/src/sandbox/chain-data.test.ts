import { PaymentOption } from '@till/contract'
import { describe, expect, it } from 'vitest'
import {
  confirmedSettlement,
  SANDBOX_FAKE_RECIPIENT,
  SANDBOX_OPTIONS,
  sandboxFee,
  sandboxPaymentRequest,
  sandboxTokenValue,
  submittedTransaction,
} from './chain-data.ts'

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

const [usdcBase, usdcEthereum] = SANDBOX_OPTIONS as [(typeof SANDBOX_OPTIONS)[0], (typeof SANDBOX_OPTIONS)[0]]
const MERCHANT_BASE = 'eip155:8453:0x52908400098527886e0f7030069857d2e4169ee7'

describe("a sandbox option's payment request", () => {
  it('asks for the exact amount of the option’s token on its chain, to the merchant’s sandbox address there', () => {
    expect(sandboxPaymentRequest(usdcBase, 13_500_000n, [MERCHANT_BASE])).toBe(
      'ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x52908400098527886E0F7030069857D2E4169EE7&uint256=13500000',
    )
  })

  it('sends to the fake recipient, which nobody holds, where the merchant has no address on that network', () => {
    expect(SANDBOX_FAKE_RECIPIENT).toBe('0x0000000000000000000000000000000000000000')
    expect(sandboxPaymentRequest(usdcEthereum, 1n, [MERCHANT_BASE])).toBe(
      `ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48@1/transfer?address=${SANDBOX_FAKE_RECIPIENT}&uint256=1`,
    )
    expect(sandboxPaymentRequest(usdcBase, 1n, [])).toContain(`address=${SANDBOX_FAKE_RECIPIENT}&`)
  })

  it('is one the contract accepts, for every sandbox option', () => {
    for (const option of SANDBOX_OPTIONS) {
      const paymentRequest = sandboxPaymentRequest(option, 21_589_200n, [MERCHANT_BASE])
      const parsed = PaymentOption.shape.paymentRequest.safeParse(paymentRequest)
      expect(parsed.success, paymentRequest).toBe(true)
    }
  })
})
