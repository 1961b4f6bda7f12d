import { API_VERSIONS, DEFAULT_API_VERSION, type RawQuery } from '@till/contract'
import type { AreaContext, V1Routes } from '../area-context.ts'
import { runsWith } from '../core/periodic.ts'
import { paymentListingRoutes } from './routes.ts'
import type { PaymentsArea } from '../payments/index.ts'
import { serviceSecret } from '../db/secrets.ts'
import { listingCursors } from './cursor.ts'
import { statsCompactor } from './rollups.ts'
import type { ListingSearch } from './filter.ts'
import { paymentListing } from './service.ts'

/** The partner and merchant listings (spec 4.1) with their statistics, and the compactor of their rollups. */
export async function listingArea(ctx: AreaContext, payments: Pick<PaymentsArea, 'store'>) {
  const { app, db, clock } = ctx
  const listing = paymentListing({
    // The read replica while it keeps up (ADR 36): a page may lag the primary by at most the guard's bound.
    db: ctx.reads,
    cursors: listingCursors(await serviceSecret(db, 'listing_cursor_key', clock.now())),
    // A listing counts a payment past its deadline as expired, whether or not the sweeper got to it; what it
    // expired itself it then reads from the primary until the replica has it.
    async settleDeadlines(partnerId) {
      let expired = 0
      for (let batch = 500; batch === 500; expired += batch) {
        batch = (await payments.store.expireDue(clock.now(), 500, undefined, partnerId)).length
      }
      if (expired > 0) await ctx.reads.afterWrite()
    },
    logoUrl: ctx.logoUrl,
  })
  if (ctx.jobs.statsCompactionMs > 0) runsWith(app, statsCompactor({ db, intervalMs: ctx.jobs.statsCompactionMs, log: app.log }))
  const v1: V1Routes = (routes) => paymentListingRoutes(routes, { auth: ctx.auth, listing })
  /**
   * The dashboard's Payments page: the same listing, scoped by who signed in, on the newest version (its
   * statuses and fields as the API's newest clients see them).
   */
  type DashboardQuery = { partnerId: string; merchantId: string | null; query: RawQuery; search?: ListingSearch }
  const dashboardInput = (input: DashboardQuery) => ({
    scope: input.merchantId
      ? { kind: 'merchant' as const, partnerId: input.partnerId, merchantId: input.merchantId }
      : { kind: 'partner' as const, partnerId: input.partnerId },
    version: API_VERSIONS[API_VERSIONS.length - 1] ?? DEFAULT_API_VERSION,
    query: input.query,
    ...(input.search ? { search: input.search } : {}),
  })
  const forDashboard = Object.assign((input: DashboardQuery) => listing.list({ ...dashboardInput(input), previous: true }), {
    /** Every matching payment, for the dashboard's export. */
    every: (input: DashboardQuery) => listing.every(dashboardInput(input)),
    /** The matching payments per UTC day, for the dashboard's chart. */
    daily: (input: DashboardQuery) => listing.daily({ ...dashboardInput(input), now: clock.now() }),
  })
  return { v1, forDashboard }
}
