import { checkoutAssets } from './page-assets.ts'
import { DEFAULT_CHECKOUT_LIMITS } from '../app-config.ts'
import type { AreaContext } from '../area-context.ts'
import { rateLimiter } from '../http/rate-limit.ts'
import { checkoutRoutes } from './routes.ts'
import type { PaymentsArea } from '../payments/index.ts'
import type { PaymentRails } from '../rails/index.ts'
import { serviceSecret } from '../db/secrets.ts'
import { checkoutTokens } from './token.ts'
import { refundPageRoutes } from './refund-routes.ts'
import type { RefundRails, RefundService } from '../refunds/index.ts'

/** The hosted checkout page (spec 4.7, 4.8), its assets, merchants' logos and the page's gateway API. */
export async function checkoutArea(
  ctx: AreaContext,
  deps: Pick<PaymentsArea, 'payments' | 'events'> & {
    rails: PaymentRails
    closing: () => boolean
    refunds: RefundService
    refundRails: RefundRails
  },
) {
  const { app, db, clock, config } = ctx
  const limits = { ...DEFAULT_CHECKOUT_LIMITS, ...config.checkoutRateLimits }
  const assets = await checkoutAssets()
  refundPageRoutes(app, {
    refunds: deps.refunds,
    links: deps.refunds.links,
    refundRails: deps.refundRails,
    accounts: ctx.accounts,
    logoUrl: ctx.logoUrl,
    assets,
    clock,
    https: () => config.checkoutUrl().startsWith('https:'),
  })
  await checkoutRoutes(app, {
    payments: deps.payments,
    accounts: ctx.accounts,
    tokens: checkoutTokens(await serviceSecret(db, 'checkout_token_key', clock.now())),
    events: deps.events,
    assets,
    clock,
    rails: deps.rails,
    https: () => config.checkoutUrl().startsWith('https:'),
    limits: {
      perIp: rateLimiter({ ...limits.perIp, clock }),
      perPayment: rateLimiter({ ...limits.perPayment, clock }),
      actionsPerPayment: rateLimiter({ ...limits.actionsPerPayment, clock }),
    },
    closing: deps.closing,
    checkoutUrl: config.checkoutUrl,
    logoUrl: ctx.logoUrl,
    logos: ctx.logos,
  })
}
