import type { FastifyInstance } from 'fastify'
import { type AppDeps, DEFAULT_API_LIMITS, DEFAULT_JOBS } from './app-config.ts'
import type { AreaContext } from './area-context.ts'
import { checkoutArea } from './checkout/area.ts'
import { dashboardArea } from './dashboard/area.ts'
import { loadMigrations } from './db/migrate.ts'
import { readRouter } from './db/replica.ts'
import { markStartedWhenReady } from './http/drain.ts'
import { metricsArea } from './metrics/area.ts'
import { tillMetrics } from './metrics/index.ts'
import { retentionArea } from './retention/area.ts'
import { followKeyRevocations, keyUsage } from './http/key-lifecycle.ts'
import { systemClock } from './core/clock.ts'
import { authenticator } from './http/auth.ts'
import { authenticateRequest } from './http/context.ts'
import { rateLimiter } from './http/rate-limit.ts'
import { metaRoutes } from './http/meta-routes.ts'
import { bindOperations } from './http/operations.ts'
import { httpServer } from './http/server.ts'
import { recordServedOperations } from './http/served-operations.ts'
import { listingArea } from './listing/area.ts'
import { logoStore, logoUrls } from './logos/index.ts'
import { merchantsArea } from './merchants/area.ts'
import { paymentsArea } from './payments/area.ts'
import { railsArea } from './rails/area.ts'
import { refundsArea } from './refunds/area.ts'
import { accountStore } from './accounts/index.ts'
import { webhooksArea } from './webhooks/area.ts'

export type { ApiRateLimits, AppConfig, AppDeps, CheckoutRateLimits, HttpTimeouts, JobIntervals } from './app-config.ts'

/**
 * Builds the Till HTTP application from its areas, each registering its routes and its background jobs
 * (docs/architecture.md). It does not listen: only the CLI does.
 */
export async function createApp(deps: AppDeps): Promise<FastifyInstance> {
  const { db, config } = deps
  const clock = deps.clock ?? systemClock
  const { app, closing } = httpServer(config, deps.logger)
  // Before any route: the published OpenAPI document lists exactly the operations served.
  const served = recordServedOperations(app)
  const accounts = accountStore(db)
  const jobs = { ...DEFAULT_JOBS, ...config.jobs }
  const reads = readRouter({
    primary: db,
    replica: deps.replica?.db,
    maxLagMs: deps.replica?.maxLagMs ?? 5_000,
    clock,
    intervalMs: jobs.replicaCheckMs,
    onChange: (state) => app.log.info(state, state.replica ? 'listing reads go to the replica' : 'listing reads go to the primary'),
  })
  app.addHook('onReady', async () => reads.start())
  app.addHook('onClose', async () => reads.stop())
  const ctx: AreaContext = {
    app,
    db,
    reads,
    clock,
    config,
    jobs,
    accounts,
    auth: authenticator({ accounts, ttlMs: config.authCacheTtlMs ?? 5_000, used: keyUsage({ accounts, clock, log: app.log }) }),
    logos: logoStore(db),
    logoUrl: logoUrls(config.checkoutUrl),
    outbound: deps.outbound,
    evm: deps.evm,
    metrics: deps.metrics ?? tillMetrics(),
  }
  // First: every route's answers are counted, whichever area registers it.
  metricsArea(ctx)

  let stopFollowingRevocations: (() => Promise<void>) | undefined
  app.addHook('onReady', async () => {
    stopFollowingRevocations = await followKeyRevocations(db.subscribe.bind(db), ctx.auth, app.log)
  })
  app.addHook('onClose', async () => stopFollowingRevocations?.())

  const payments = paymentsArea(ctx)
  const rails = await railsArea(ctx, payments)
  const refunds = await refundsArea(ctx, { refundRails: rails.refundRails })
  const listing = await listingArea(ctx, payments)
  const merchants = merchantsArea(ctx)
  const webhooks = await webhooksArea(ctx)
  const areas = [payments, listing, merchants, refunds, webhooks, rails]

  dashboardArea(ctx, {
    payments: payments.payments,
    refunds: refunds.refunds,
    listing: listing.forDashboard,
    merchants: merchants.merchants,
    webhooks: webhooks.webhooks,
  })
  metaRoutes(app, { db, sandbox: config.sandbox, served, latestMigration: (await loadMigrations()).at(-1)?.name })
  const apiLimits = { ...DEFAULT_API_LIMITS, ...config.apiRateLimits }
  const limiters = {
    perKey: rateLimiter({ ...apiLimits.perKey, clock }),
    authFailuresPerAddress: rateLimiter({ ...apiLimits.authFailuresPerAddress, clock }),
  }
  await app.register(async (v1) => {
    bindOperations(v1)
    v1.addHook('onRequest', authenticateRequest(ctx.auth, limiters))
    for (const area of areas) area.v1(v1)
  })
  await checkoutArea(ctx, { ...payments, rails: rails.rails, closing, refunds: refunds.refunds, refundRails: rails.refundRails })
  retentionArea(ctx)
  // Last: ready only once every area's own start-up (rails, listeners, followers) has run.
  markStartedWhenReady(app)
  return app
}
