import type { AreaContext } from '../area-context.ts'
import type { PaymentService } from '../payments/index.ts'
import type { RefundService } from '../refunds/index.ts'
import { sessionGuards } from './guards.ts'
import { type DashboardListing, dashboardPaymentRoutes } from './payment-routes.ts'
import { dashboardPageRoutes } from './page-routes.ts'
import type { MerchantService } from '../merchants/index.ts'
import { dashboardAccountRoutes } from './account-routes.ts'
import { explorerLinks } from './explorer.ts'
import { dashboardKeyRoutes } from './key-routes.ts'
import { unappliedTransferPages } from '../evm/index.ts'
import { dashboardMerchantRoutes } from './merchant-routes.ts'
import { dashboardUnappliedRoutes } from './unapplied-routes.ts'
import { dashboardWebhookRoutes } from './webhook-routes.ts'
import type { WebhookService } from '../webhooks/index.ts'
import { dashboardTeamRoutes } from './team-routes.ts'
import { liveListing } from './live.ts'
import { dashboardLiveRoutes } from './live-routes.ts'
import { dashboardPasskeys } from './passkeys.ts'
import { dashboardRoutes } from './routes.ts'
import { dashboardPeople } from './service.ts'
import { dashboardUrls } from './urls.ts'
import { dashboardReads } from './replica-reads.ts'

/**
 * The dashboard (issue 25): its people, their sessions and the audit log, over session-authenticated routes
 * under /dashboard/api/. The browser code that uses them comes with packages/dashboard.
 */
export function dashboardArea(
  ctx: AreaContext,
  deps: {
    payments: PaymentService
    refunds: RefundService
    listing: DashboardListing
    merchants: MerchantService
    webhooks: WebhookService
  },
) {
  const people = dashboardPeople({ db: ctx.db, clock: ctx.clock })
  const urls = dashboardUrls(ctx.config)
  const guards = sessionGuards(people, urls.origin)
  const passkeys = dashboardPasskeys({ db: ctx.db, clock: ctx.clock, people, rp: urls })
  // The lists and the audit log read the replica while it keeps up, each browser after its own changes;
  // a payment's page, webhooks and unapplied transfers read the primary (ADR 36).
  const reads = dashboardReads(ctx.app, ctx.reads, { secure: () => urls.origin().startsWith('https:') })
  dashboardRoutes(ctx.app, { people, passkeys, guards, reads, invitationUrl: urls.invitation })
  const explorerTxUrl = explorerLinks(ctx.evm?.config.networks ?? [])
  dashboardPaymentRoutes(ctx.app, { ...deps, db: ctx.db, clock: ctx.clock, people, guards, explorerTxUrl })
  dashboardMerchantRoutes(ctx.app, { merchants: deps.merchants, guards, people, clock: ctx.clock })
  dashboardWebhookRoutes(ctx.app, { guards, people, merchants: deps.merchants, webhooks: deps.webhooks, clock: ctx.clock })
  dashboardUnappliedRoutes(ctx.app, {
    guards,
    people,
    merchants: deps.merchants,
    refunds: deps.refunds,
    pages: unappliedTransferPages({ db: ctx.db, config: ctx.evm?.config }),
    explorerTxUrl,
    clock: ctx.clock,
  })
  dashboardKeyRoutes(ctx.app, { db: ctx.db, reads, guards, clock: ctx.clock, forgetKey: (keyId) => ctx.auth.forget(keyId) })
  dashboardAccountRoutes(ctx.app, { db: ctx.db, reads, guards, passkeys, clock: ctx.clock })
  dashboardTeamRoutes(ctx.app, { db: ctx.db, reads, guards, clock: ctx.clock })
  dashboardLiveRoutes(ctx.app, { guards, live: liveListing(ctx.db, ctx.app.log) })
  dashboardPageRoutes(ctx.app, { https: () => urls.origin().startsWith('https:') })
  return { people }
}
