import { randomBytes, randomInt } from 'node:crypto'
import { parseFiatUnit } from '@till/contract'
import { checksumAddress } from '../evm/index.ts'
import { paymentRequestUri, transferDetails } from '../rails/index.ts'
import type { PaidDetails } from '../payments/index.ts'

/**
 * Realistic on-chain data for sandbox payments: the buyer pays USDC on Base, as a real wallet would, and
 * Till reports what the listing view shows (spec section 2.1). Nothing here touches a chain.
 */
export type SandboxOption = {
  /** Stable, URL-safe: the checkout page sends it back when the buyer signs. */
  id: string
  network: { caip2: string; name: string }
  token: { caip19: string; symbol: string; name: string; decimals: number }
}

// Real contract addresses, so what the listing shows looks like what a real payment leaves. All are
// USD-pegged stablecoins with 6 decimals; the sandbox treats them as worth exactly one dollar.
const stablecoin = (id: string, network: SandboxOption['network'], contract: string, symbol: 'USDC' | 'USDT'): SandboxOption => ({
  id,
  network,
  token: { caip19: `${network.caip2}/erc20:${contract}`, symbol, name: symbol === 'USDC' ? 'USD Coin' : 'Tether USD', decimals: 6 },
})
const BASE = { caip2: 'eip155:8453', name: 'Base' }
const ETHEREUM = { caip2: 'eip155:1', name: 'Ethereum' }
const POLYGON = { caip2: 'eip155:137', name: 'Polygon' }

export const SANDBOX_OPTIONS: readonly SandboxOption[] = [
  stablecoin('usdc-base', BASE, '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', 'USDC'),
  stablecoin('usdc-ethereum', ETHEREUM, '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', 'USDC'),
  stablecoin('usdc-polygon', POLYGON, '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359', 'USDC'),
  stablecoin('usdt-ethereum', ETHEREUM, '0xdac17f958d2ee523a2206206994597c13d831ec7', 'USDT'),
]

/** What the simulate endpoint pays with: USDC on Base. */
const [DEFAULT_OPTION] = SANDBOX_OPTIONS as [SandboxOption, ...SandboxOption[]]

export const sandboxOption = (id: string) => SANDBOX_OPTIONS.find((option) => option.id === id)

/**
 * Where a sandbox option's payment request sends the tokens when the merchant has no sandbox receiving
 * address on the option's network: the zero address, which nobody holds a key for. It is a fake on purpose,
 * and obviously one on the page ("Send to 0x0000…0000"): the sandbox's options name real tokens on real
 * chains, so a real phone wallet could sign the request, and its tokens must not reach anyone. USDC refuses
 * a transfer to it. Nothing ever pays a sandbox request on chain: a test plays the phone wallet with the
 * sandbox simulate call (`POST /v1/sandbox/payments/{id}/simulate`).
 */
export const SANDBOX_FAKE_RECIPIENT = '0x0000000000000000000000000000000000000000'

/** The merchant's receiving address on `network` (CAIP-2), from their CAIP-10 settlement accounts, if any. */
function receivingAddress(settlementAddresses: readonly string[], network: string): string | undefined {
  const account = settlementAddresses.find((candidate) => candidate.toLowerCase().startsWith(`${network}:`))
  const address = account?.slice(network.length + 1)
  return address && /^0x[0-9a-fA-F]{40}$/.test(address) ? address : undefined
}

/**
 * The EIP-681 payment request the page shows for a sandbox option (the "Phone wallet (sandbox)"): the option's
 * token contract on its chain, the exact amount, and the merchant's sandbox address there, or the fake one.
 */
export function sandboxPaymentRequest(option: SandboxOption, amount: bigint, settlementAddresses: readonly string[]): string {
  const chainId = Number(option.network.caip2.split(':')[1])
  const token = option.token.caip19.split(':').pop() ?? ''
  const recipient = receivingAddress(settlementAddresses, option.network.caip2) ?? SANDBOX_FAKE_RECIPIENT
  return paymentRequestUri({ token: checksumAddress(token), chainId, recipient: checksumAddress(recipient), amount })
}

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

/** A buyer's quote: who pays how much of what. The option is USDC on Base and the account random when absent. */
export type Quote = {
  currency: string
  amountMinor: bigint
  walletName: string
  option?: SandboxOption
  /** CAIP-10, on the option's network. */
  buyerAccount?: string
}

/** What a submitted transaction leaves on the payment (the pending → processing step). */
export function submittedTransaction(input: Quote): PaidDetails {
  return { ...quoted(input), txHash: hex(32), txNonce: BigInt(randomInt(0, 5_000)) }
}

/** What a buyer who connected a wallet and saw the quote leaves, before any transaction exists. */
export function quoted(input: Quote): PaidDetails {
  const option = input.option ?? DEFAULT_OPTION
  return transferDetails({
    buyerAccount: input.buyerAccount ?? `${option.network.caip2}:${hex(20)}`,
    walletName: input.walletName,
    network: option.network.caip2,
    token: { ...option.token, id: option.token.caip19 },
    value: sandboxTokenValue(input.currency, input.amountMinor),
  })
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
