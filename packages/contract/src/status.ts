import { z } from 'zod'

export const MerchantPaymentStatus = z.enum(['pending', 'processing', 'succeeded', 'failed', 'expired']).meta({
  id: 'MerchantPaymentStatus',
  description: 'Payment status in the merchant view; succeeded, failed and expired are final.',
})
export type MerchantPaymentStatus = z.infer<typeof MerchantPaymentStatus>

export const FINAL_STATUSES = ['succeeded', 'failed', 'expired'] as const satisfies readonly MerchantPaymentStatus[]

export function isFinalStatus(status: MerchantPaymentStatus): boolean {
  return (FINAL_STATUSES as readonly MerchantPaymentStatus[]).includes(status)
}

/** The refinement of every merchant-view shape that pairs `status` with `isFinal`: they must agree. */
export function refineIsFinal(value: { status: MerchantPaymentStatus; isFinal: boolean }, ctx: z.RefinementCtx): void {
  if (value.isFinal === isFinalStatus(value.status)) return
  ctx.addIssue({
    code: 'custom',
    path: ['isFinal'],
    input: value.isFinal,
    message: `must be ${isFinalStatus(value.status)} when status is ${value.status}`,
  })
}

export const ListingPaymentStatus = z.enum(['requires_action', 'processing', 'succeeded', 'failed', 'expired', 'cancelled']).meta({
  id: 'ListingPaymentStatus',
  description: 'Payment status in the partner listing; succeeded, failed, expired and cancelled are terminal.',
})
export type ListingPaymentStatus = z.infer<typeof ListingPaymentStatus>

// The spec names terminal values only for the merchant view; the listing view adds `cancelled`, which
// can never move again either, so it is terminal too.
export const TERMINAL_LISTING_STATUSES = ['succeeded', 'failed', 'expired', 'cancelled'] as const satisfies readonly ListingPaymentStatus[]

export function toListingStatus(status: MerchantPaymentStatus): ListingPaymentStatus {
  return status === 'pending' ? 'requires_action' : status
}

export function isTerminalListingStatus(status: ListingPaymentStatus): boolean {
  return (TERMINAL_LISTING_STATUSES as readonly ListingPaymentStatus[]).includes(status)
}
