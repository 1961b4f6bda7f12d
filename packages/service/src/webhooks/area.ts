import type { AreaContext, V1Routes } from '../area-context.ts'
import { auditLog } from '../audit/index.ts'
import { runsWith } from '../core/periodic.ts'
import { webhookEndpointRoutes } from './routes.ts'
import { serviceSecret } from '../db/secrets.ts'
import { unappliedSnapshotView } from '../evm/index.ts'
import { openRefundLinks, refundSnapshotView } from '../refunds/index.ts'
import { webhookDispatcher } from './dispatcher.ts'
import { secretSealer } from './secrets.ts'
import { webhookSender } from './sender.ts'
import { webhookService } from './service.ts'

/**
 * Webhooks: merchants' endpoints and their deliveries over the API, and the dispatcher that sends what the
 * outbox holds (the outbox itself is written by triggers, with each status change and each unapplied transfer
 * recorded: migrations 0008 and 0014).
 */
export async function webhooksArea(ctx: AreaContext) {
  const { app, db, clock, config } = ctx
  const sealer = secretSealer(await serviceSecret(db, 'webhook_secret_key', clock.now()))
  const policy = { allowLoopback: config.sandbox }
  const transferView = unappliedSnapshotView(ctx.evm?.config)
  const links = await openRefundLinks(db, clock.now(), config.checkoutUrl)
  const refundView = refundSnapshotView(links)
  const webhooks = webhookService({
    db,
    clock,
    sealer,
    logoUrl: ctx.logoUrl,
    transferView,
    refundView,
    policy,
    lookup: ctx.outbound?.lookup,
  })
  if (ctx.jobs.webhookDispatchMs > 0) {
    const send = webhookSender({ policy, ...ctx.outbound })
    runsWith(
      app,
      webhookDispatcher({
        db,
        clock,
        sealer,
        logoUrl: ctx.logoUrl,
        transferView,
        refundView,
        send,
        log: app.log,
        intervalMs: ctx.jobs.webhookDispatchMs,
        attempted: (outcome, latencyMs) => {
          ctx.metrics.webhookAttempts.inc({ outcome })
          ctx.metrics.webhookLatency.observe(latencyMs / 1000)
        },
      }),
    )
  }
  const v1: V1Routes = (routes) => webhookEndpointRoutes(routes, { auth: ctx.auth, webhooks, audit: auditLog(db), clock })
  return { v1, webhooks }
}
