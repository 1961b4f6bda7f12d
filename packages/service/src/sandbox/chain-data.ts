import { randomBytes, randomInt } from 'node:crypto'
import { parseFiatUnit } from '@till/contract'
import type { PaidDetails } from '../store/payment-record.ts'

/**
 * Realistic on-chain data for sandbox payments: the buyer pays USDC on Base, as a real wallet would, and
 * Till reports what the listing view shows (spec section 2.1). Nothing here touches a chain.
 */
export const SANDBOX_NETWORK = { caip2: 'eip155:8453', name: 'Base' } as const
export const SANDBOX_TOKEN = {
  caip19: 'eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  symbol: 'USDC',
  name: 'USD Coin',
  decimals: 6,
} as const

/** 0.4 % — the spec's example percentage — as basis points, so fees stay integer arithmetic. */
export const SANDBOX_FEE = { percentage: '0.4', basisPoints: 40n } as const

// Sandbox exchange rates: micro-USD (USDC minor units) for one major unit of the currency. Fixed, so tests
// and screenshots are repeatable; unlisted currencies use 1 USD, which is enough for a sandbox.
const MICRO_USD_PER_MAJOR: Record<string, bigint> = {
  USD: 1_000_000n,
  EUR: 1_080_000n,
  GBP: 1_270_000n,
  CHF: 1_130_000n,
  JPY: 6_700n,
  KWD: 3_250_000n,
  CAD: 730_000n,
  AUD: 660_000n,
}

const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b

export function sandboxTokenValue(currency: string, amountMinor: bigint): bigint {
  const exponent = parseFiatUnit(`iso4217/${currency}`)?.exponent ?? 2
  const rate = MICRO_USD_PER_MAJOR[currency] ?? 1_000_000n
  // The buyer never pays less than the price: round up to the token's smallest unit.
  return ceilDiv(amountMinor * rate, 10n ** BigInt(exponent))
}

export function sandboxFee(amountMinor: bigint): bigint {
  return ceilDiv(amountMinor * SANDBOX_FEE.basisPoints, 10_000n)
}

/** What a submitted transaction leaves on the payment (the pending → processing step). */
export function submittedTransaction(input: {
  currency: string
  amountMinor: bigint
  walletName: string
  buyerAddress?: string
}): PaidDetails {
  return {
    buyerAccount: `${SANDBOX_NETWORK.caip2}:${input.buyerAddress ?? hex(20)}`,
    buyerProviderName: input.walletName,
    buyerProviderIcon: null,
    network: SANDBOX_NETWORK.caip2,
    txHash: hex(32),
    txNonce: BigInt(randomInt(0, 5_000)),
    token: {
      unit: SANDBOX_TOKEN.caip19,
      value: sandboxTokenValue(input.currency, input.amountMinor),
      symbol: SANDBOX_TOKEN.symbol,
      name: SANDBOX_TOKEN.name,
      decimals: SANDBOX_TOKEN.decimals,
    },
    feeMinor: null,
    feePercentage: null,
    settlement: null,
  }
}

/** What confirmation adds (processing → succeeded): the fee and the merchant's settlement, net of it. */
export function confirmedSettlement(base: PaidDetails, amountMinor: bigint, now: Date): PaidDetails {
  const fee = sandboxFee(amountMinor)
  return {
    ...base,
    feeMinor: fee,
    feePercentage: SANDBOX_FEE.percentage,
    settlement: { settled: true, amountMinor: amountMinor - fee, txHash: hex(32), settledAt: now },
  }
}
