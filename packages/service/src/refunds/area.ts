import type { AreaContext, V1Routes } from '../area-context.ts'
import { idempotencyKeys } from '../http/idempotency.ts'
import { openRefundLinks } from './links.ts'
import type { RefundRails } from './rail.ts'
import { refundRoutes } from './routes.ts'
import { refundService } from './service.ts'

/**
 * Refunds (issue 24): the merchant API's /v1/refunds, and the two pages of a refund under the checkout's
 * address: the buyer's claim page and the merchant's pay page. Transfers are checked by the refund rails.
 */
export async function refundsArea(ctx: AreaContext, deps: { refundRails: RefundRails }) {
  const { db, clock } = ctx
  const links = await openRefundLinks(db, clock.now(), ctx.config.checkoutUrl)
  const refunds = refundService({
    db,
    clock,
    links,
    idempotency: idempotencyKeys({ db, clock }),
    refundRails: deps.refundRails,
  })
  const v1: V1Routes = (routes) =>
    refundRoutes(routes, { auth: ctx.auth, refunds, refundRails: deps.refundRails, sandbox: ctx.config.sandbox })
  return { refunds, v1 }
}
