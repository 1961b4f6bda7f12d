import { z } from 'zod'
import { Caip10, Caip2 } from './caip.ts'
import { DateTime } from './listing.ts'
import { TokenAmount } from './money.ts'

/**
 * Why a buyer's transfer to a merchant paid no payment (issue 23, point 4). The merchant holds the money
 * and sends it back to the sender, or settles it with the buyer another way; the payment, if any, keeps
 * its status. An extension of the spec, as BTCPay's "paid late" and "paid partially".
 *
 * - `payment_expired`: it matched a payment that had expired (or failed) by the time it arrived.
 * - `payment_cancelled`: it matched a payment the merchant had cancelled.
 * - `payment_already_paid`: it matched a payment another transaction had already paid.
 * - `amount_mismatch`: the payment's reference or receiving address matched, the amount did not.
 * - `no_matching_payment`: it reached a merchant's receiving address but names no payment.
 */
export const UNAPPLIED_REASONS = [
  'payment_expired',
  'payment_cancelled',
  'payment_already_paid',
  'amount_mismatch',
  'no_matching_payment',
] as const

export const UnappliedReason = z.enum(UNAPPLIED_REASONS).meta({
  id: 'UnappliedReason',
  description:
    'Why the transfer paid nothing: payment_expired (the payment it matched had ended), payment_cancelled (the merchant had cancelled the payment), ' +
    'payment_already_paid (another transaction paid it), amount_mismatch (the reference or recipient matched, the amount ' +
    'did not), no_matching_payment (no payment matched).',
})
export type UnappliedReason = z.infer<typeof UnappliedReason>

/**
 * A buyer's transfer that paid nothing, as the API lists it: what to send back, to whom, and why.
 * `GET /v1/merchants/{merchantId}/unapplied-transfers`, and the `transfer.unapplied` webhook event.
 */
export const UnappliedTransfer = z
  .object({
    id: z.string().meta({ description: '`<networkId>/<transaction hash>`: what POST /v1/refunds takes as `unappliedTransferId`.' }),
    transaction: z.object({
      networkId: Caip2,
      hash: z.string(),
      logIndex: z
        .int()
        .min(0)
        .nullable()
        .meta({ description: "The ERC-20 Transfer log's index in its block; null when recorded from a hash the checkout page posted." }),
    }),
    from: Caip10.meta({ description: 'The account that sent it: where a refund goes.' }),
    to: Caip10.meta({ description: "The merchant's receiving account it reached." }),
    tokenAmount: TokenAmount,
    reason: UnappliedReason,
    paymentId: z.string().nullable().meta({ description: 'The payment it matched; null when it matched none (no_matching_payment).' }),
    recordedAt: DateTime,
  })
  .meta({
    id: 'UnappliedTransfer',
    description:
      'A transfer to the merchant that paid no payment; the payment, if any, keeps its status. The merchant refunds it to `from`.',
  })
export type UnappliedTransfer = z.infer<typeof UnappliedTransfer>

export const UnappliedTransferList = z
  .object({
    data: z.array(UnappliedTransfer),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  })
  .meta({ id: 'UnappliedTransferList', description: "One page of a merchant's unapplied transfers, newest first." })
export type UnappliedTransferList = z.infer<typeof UnappliedTransferList>
