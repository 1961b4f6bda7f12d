import type { MerchantPaymentStatus } from './status.ts'

// No zod here, at run time or otherwise: the checkout page's browser bundle imports this module alone.

/**
 * How far along its one-way lifecycle (spec section 3) a payment in each status is. Of two observations
 * of one payment, the one further along is the newer, whatever order they arrived in; the final statuses
 * share the last step, since a payment reaches only one of them and never leaves it.
 */
export const STATUS_PROGRESS: Readonly<Record<MerchantPaymentStatus, number>> = {
  pending: 0,
  processing: 1,
  succeeded: 2,
  failed: 2,
  expired: 2,
}

export const FINAL_PROGRESS = 2
