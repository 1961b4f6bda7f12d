import { z } from 'zod'

/**
 * Why a buyer's transfer to a merchant paid no payment (issue 23, point 4). The merchant holds the money
 * and sends it back to the sender, or settles it with the buyer another way; the payment, if any, keeps
 * its status. An extension of the spec, as BTCPay's "paid late" and "paid partially".
 *
 * - `payment_expired`: it matched a payment that had expired (or failed) by the time it arrived.
 * - `payment_cancelled`: it matched a payment the merchant had cancelled (reserved: cancelling comes later).
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
    'Why the transfer paid nothing: payment_expired (the payment it matched had ended), payment_cancelled (reserved), ' +
    'payment_already_paid (another transaction paid it), amount_mismatch (the reference or recipient matched, the amount ' +
    'did not), no_matching_payment (no payment matched).',
})
export type UnappliedReason = z.infer<typeof UnappliedReason>
