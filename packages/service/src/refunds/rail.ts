import type { RefundOutcome } from '@till/contract'
import type { RefundMatch, RefundRailName, RefundRecord } from './record.ts'

/** What the chain says a refund's transfer is: who sent it, to whom, and how it is tied to the refund. */
export type CheckedRefundTransfer = { from: string | null; to: string; matchedBy: RefundMatch }

/**
 * How a refund is paid and verified on one rail (issue 24): the EVM rail checks transfers on its networks'
 * RPCs and follows them to their confirmations; the sandbox's test wallets pay at once. The refunds area asks
 * its rails and nothing else about chains.
 */
export interface RefundRail {
  readonly name: RefundRailName
  /** The token's display on a network, as configured; undefined when the rail does not know it. */
  token(network: string, tokenUnit: string): { symbol: string; name: string; decimals: number } | undefined
  /**
   * Checks a transaction posted by the pay page (`matchedBy: 'reference'`: it must carry the refund's
   * reference) or given to mark-refunded (`'merchant'`: a transfer of the token's exact amount to the
   * destination, or to whoever received it when there is none yet). Throws 400 params_validation naming
   * `transactionHash` when it does not pay the refund, 409 transaction_not_found when the node does not know it.
   */
  checkTransaction(refund: RefundRecord, hash: string, matchedBy: 'reference' | 'merchant'): Promise<CheckedRefundTransfer>
  /** A refund's transfer was just submitted: check it now rather than at the next tick. */
  nudge(): void
  /**
   * The sandbox's test wallets: pays the refund as the merchant's wallet would (giving it a test destination
   * first, when it has none), and ends it. Only where nothing is on a chain.
   */
  pay?(refund: RefundRecord, outcome: RefundOutcome): Promise<RefundRecord>
  /** The test wallets the pay page offers, each ending the refund its way: the sandbox's, with `pay`. */
  readonly testWallets?: readonly { id: string; name: string; outcome: RefundOutcome }[]
}

/** The refund rails of this service, by name. */
export type RefundRails = Partial<Record<RefundRailName, RefundRail>>
