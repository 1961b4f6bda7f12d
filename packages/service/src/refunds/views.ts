import { fiatAmount, type Refund } from '@till/contract'
import type { RefundLinks } from './links.ts'
import { type RefundRecord, type RefundRow, toRefundRecord } from './record.ts'

/** `<networkId>/<transaction hash>`: an unapplied transfer's id, as the API lists it (evm unappliedTransferView). */
const unappliedId = (unapplied: { network: string; txHash: string }) => `${unapplied.network}/${unapplied.txHash}`

/** A refund as the API shows it (GET /v1/refunds/{id}, the refund.* webhook events), its links as of `now`. */
export function refundView(refund: RefundRecord, links: RefundLinks, now: Date): Refund {
  return {
    id: refund.id,
    paymentId: refund.paymentId,
    unappliedTransferId: refund.unapplied ? unappliedId(refund.unapplied) : null,
    amount: refund.fiat ? fiatAmount(refund.fiat.currency, refund.fiat.amountMinor) : null,
    tokenAmount: {
      unit: `caip19/${refund.token.unit}`,
      value: refund.tokenAmount.toString(),
      display: { assetSymbol: refund.token.symbol, assetName: refund.token.name, decimals: refund.token.decimals },
    },
    status: refund.status,
    reason: refund.reason,
    destination: refund.destination,
    ...links.of(refund, now),
    reference: refund.reference,
    transaction: refund.transaction ? { networkId: refund.network, hash: refund.transaction.hash, from: refund.transaction.from } : null,
    createdAt: refund.createdAt.toISOString(),
    updatedAt: refund.updatedAt.toISOString(),
  }
}

/**
 * A refund.* webhook event's stored refund row (numbers as text), as the API showed the refund at the change:
 * its links as they were then, however late the event is delivered.
 */
export const refundSnapshotView =
  (links: RefundLinks) =>
  (snapshot: Record<string, unknown>): Refund => {
    const refund = toRefundRecord(snapshot as RefundRow)
    return refundView(refund, links, refund.updatedAt)
  }
