import type { PaymentRecord } from '../payments/index.ts'
import type { TimelineEntry } from './timeline.ts'

/** How a payment was paid, as its dashboard page shows it; null while nothing is paid. */
export type PaidOption = {
  network: string
  token: { symbol: string; decimals: number; amount: string } | null
  /** The rate the paid option was quoted at (fiat per token), when Till quoted it. */
  rate: string | null
  buyer: string
  wallet: string | null
  transactionHash: string | null
  explorerUrl: string | null
}

/**
 * The option a buyer paid with (issue 25, point 6): token, network, the exact amount in the token's smallest
 * unit, the rate of the quote it was paid against, and the transaction at the network's explorer.
 */
export function paidOption(
  payment: PaymentRecord,
  timeline: TimelineEntry[],
  explorerTxUrl: (network: string, hash: string) => string | null,
): PaidOption | null {
  const paid = payment.paid
  if (!paid) return null
  const quote = timeline.find(
    (entry) =>
      entry.kind === 'quoted' &&
      entry.network === paid.network &&
      paid.token !== null &&
      entry.token.toLowerCase() === paid.token.unit.toLowerCase() &&
      entry.tokenAmount === paid.token.value.toString(),
  )
  return {
    network: paid.network,
    token: paid.token && { symbol: paid.token.symbol, decimals: paid.token.decimals, amount: paid.token.value.toString() },
    rate: quote?.kind === 'quoted' ? quote.rate : null,
    buyer: paid.buyerAccount,
    wallet: paid.buyerProviderName,
    transactionHash: paid.txHash,
    explorerUrl: paid.txHash ? explorerTxUrl(paid.network, paid.txHash) : null,
  }
}
