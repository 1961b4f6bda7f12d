import { z } from 'zod'
import {
  FINAL_STATUSES,
  isFinalStatus,
  LISTING_STATUSES,
  type ListingPaymentStatus as ListingStatus,
  MERCHANT_STATUSES,
  type MerchantPaymentStatus as MerchantStatus,
  TERMINAL_LISTING_STATUSES,
} from './statuses.ts'

// The zod shapes of the status vocabulary in statuses.ts, for the request and response schemas.

export const MerchantPaymentStatus = z.enum(MERCHANT_STATUSES).meta({
  id: 'MerchantPaymentStatus',
  description: `Payment status in the merchant view; ${FINAL_STATUSES.join(', ')} are final.`,
})
export type MerchantPaymentStatus = MerchantStatus

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

export const ListingPaymentStatus = z.enum(LISTING_STATUSES).meta({
  id: 'ListingPaymentStatus',
  description: `Payment status in the partner listing; ${TERMINAL_LISTING_STATUSES.join(', ')} are terminal.`,
})
export type ListingPaymentStatus = ListingStatus
