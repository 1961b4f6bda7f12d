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
import { type ApiVersion, compareApiVersions } from './versions.ts'

// The zod shapes of the status vocabulary in statuses.ts, for the request and response schemas.

/** The first version whose merchant view shows `cancelled`; older ones read a cancelled payment as `failed`. */
export const CANCELLED_SHOWN_SINCE: ApiVersion = '2026-02-19.preview'

/**
 * A payment's status as the merchant view of `version` shows it. Spec section 3 gives that view five values,
 * none of them `cancelled`; on 2026-02-18 a cancelled payment reads `failed`, the spec's "failed or
 * rejected", final as it is (ADR 24).
 */
export function merchantViewStatus(status: MerchantStatus, version: ApiVersion): MerchantStatus {
  return status === 'cancelled' && compareApiVersions(version, CANCELLED_SHOWN_SINCE) < 0 ? 'failed' : status
}

export const MerchantPaymentStatus = z.enum(MERCHANT_STATUSES).meta({
  id: 'MerchantPaymentStatus',
  description:
    `Payment status in the merchant view; ${FINAL_STATUSES.join(', ')} are final. \`cancelled\` (the merchant called the ` +
    `payment off) is shown from ${CANCELLED_SHOWN_SINCE}; on older versions a cancelled payment reads \`failed\`.`,
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
