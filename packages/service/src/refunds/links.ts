import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Queryable } from '../db/port.ts'
import { serviceSecret } from '../db/secrets.ts'
import { ApiError } from '../errors.ts'
import type { RefundRecord } from './record.ts'

/** The two pages of a refund: the buyer's, to name the destination, and the merchant's, to pay it. */
export type RefundPage = 'claim' | 'pay'

/**
 * A refund's links carry a token derived from a service secret, so the API can show them again and no table
 * holds them. What makes a link single-use is the refund's status: the claim page works only while the refund
 * awaits its destination, the pay page only until its transaction is known; each for REFUND_LINK_DAYS.
 */
export function refundLinks(key: Buffer, checkoutUrl: () => string) {
  const sign = (page: RefundPage, refundId: string) => createHmac('sha256', key).update(`refund-${page}:${refundId}`).digest('base64url')

  const url = (page: RefundPage, refundId: string) => `${checkoutUrl()}/refunds/${refundId}/${page}?token=${sign(page, refundId)}`

  return {
    url,

    /** Where each page is while it can still be used; null once it cannot. */
    of(refund: RefundRecord, now: Date): { claimUrl: string | null; payUrl: string | null } {
      const claimable = refund.status === 'awaiting_destination' && refund.claimExpiresAt > now
      const payable = (refund.status === 'awaiting_destination' || refund.status === 'ready') && refund.payExpiresAt > now
      return { claimUrl: claimable ? url('claim', refund.id) : null, payUrl: payable ? url('pay', refund.id) : null }
    },

    /** Throws 403 refund_link_invalid unless `token` is the one issued for this page of this refund. */
    check(page: RefundPage, refundId: string, token: string | undefined): void {
      // Compared as the exact string issued: base64url decoding is lenient about spare bits.
      const expected = Buffer.from(sign(page, refundId))
      const given = Buffer.from(token ?? '')
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new ApiError('refund_link_invalid', 'This refund link is not valid. Ask the shop for the link again.')
      }
    },
  }
}

export type RefundLinks = ReturnType<typeof refundLinks>

/** The links with this service's signing key: the API shows them, and the webhook events carry them. */
export async function openRefundLinks(db: Queryable, now: Date, checkoutUrl: () => string): Promise<RefundLinks> {
  return refundLinks(await serviceSecret(db, 'refund_link_key', now), checkoutUrl)
}
