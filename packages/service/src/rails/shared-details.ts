import type { PaymentOption } from '@till/contract'
import type { PaidDetails } from '../payments/index.ts'

// What every rail builds the same way, whatever its chain: the option a buyer is shown, and what the
// buyer's transfer leaves on the payment.

type Network = { id: string; name: string }
type Token = { id: string; symbol: string; name: string; decimals: number }

/** An option as the checkout page lists it: an amount of a token on a network. A rail adds how to pay it. */
export function optionView(input: { id: string; network: Network; token: Token; value: bigint }): PaymentOption {
  const { network, token } = input
  return {
    id: input.id,
    network: { id: network.id, name: network.name },
    tokenAmount: {
      unit: `caip19/${token.id}`,
      value: input.value.toString(),
      display: { assetSymbol: token.symbol, assetName: token.name, decimals: token.decimals, networkName: network.name },
    },
  }
}

/**
 * What a buyer's transfer leaves on the payment (spec 2.1's buyer, transaction and token amount): before
 * confirmation, so no fee and no settlement yet. Without a hash the buyer has only seen the quote.
 */
export function transferDetails(input: {
  buyerAccount: string
  walletName: string | null
  network: string
  token: Token
  value: bigint
  transaction?: { hash: string; nonce: bigint }
}): PaidDetails {
  const { token } = input
  return {
    buyerAccount: input.buyerAccount,
    buyerProviderName: input.walletName,
    buyerProviderIcon: null,
    network: input.network,
    txHash: input.transaction?.hash ?? null,
    txNonce: input.transaction?.nonce ?? null,
    token: { unit: token.id, value: input.value, symbol: token.symbol, name: token.name, decimals: token.decimals },
    feeMinor: null,
    feePercentage: null,
    settlement: null,
  }
}

/**
 * An EIP-681 payment request for an ERC-20 transfer, as wallet apps read it from a QR code: the chain id in
 * decimal and the amount a plain integer in the token's smallest unit, as the issue and wallets ask.
 */
export function paymentRequestUri(input: { token: string; chainId: number; recipient: string; amount: bigint }): string {
  return `ethereum:${input.token}@${input.chainId}/transfer?address=${input.recipient}&uint256=${input.amount}`
}
