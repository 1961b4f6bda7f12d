import type { AreaContext, V1Routes } from '../area-context.ts'
import { runsWith } from '../core/periodic.ts'
import { merchantPaymentRoutes } from './merchant-routes.ts'
import { partnerPaymentRoutes } from './partner-routes.ts'
import { paymentStore } from './store.ts'
import { paymentObserver } from '../metrics/index.ts'
import { expirySweeper } from './expiry-sweeper.ts'
import { paymentService } from './service.ts'
import { statusCache } from './status-cache.ts'
import { statusEvents } from './status-events.ts'
import { followStatusChanges } from './status-notifications.ts'

/**
 * Payments: their service, the status cache fed by every instance's NOTIFYs, the long-polls' wake-ups, the
 * merchant and partner status routes, and the expiry sweeper.
 */
export function paymentsArea(ctx: AreaContext) {
  const { app, db, clock, config } = ctx
  const events = statusEvents()
  // Other instances may write too: non-terminal statuses are trusted only while their NOTIFYs arrive.
  const cache = statusCache({ maxEntries: config.statusCacheEntries ?? 100_000, onChange: (id) => events.publish(id) })
  let unsubscribe: (() => Promise<void>) | undefined
  app.addHook('onReady', async () => {
    unsubscribe = await followStatusChanges(db.subscribe.bind(db), cache, app.log, (hearing) => events.hearing(hearing))
  })
  app.addHook('onClose', async () => unsubscribe?.())
  // Long-polls would hold the close until they time out; answer them now (the server is closing by then).
  app.addHook('preClose', async () => events.releaseAll())

  const observe = paymentObserver(ctx.metrics)
  const store = paymentStore(db, observe)
  const payments = paymentService({
    db,
    clock,
    cache,
    observe,
    policy: { paymentTtlSeconds: config.paymentTtlSeconds, allowLoopbackRedirects: config.sandbox },
  })
  if (ctx.jobs.expirySweepMs > 0) {
    const onExpired = (ids: string[]) => {
      for (const id of ids) events.publish(id)
    }
    runsWith(app, expirySweeper({ store, clock, intervalMs: ctx.jobs.expirySweepMs, log: app.log, onExpired }))
  }
  const gatewayUrl = (paymentId: string) => `${config.checkoutUrl()}/${paymentId}`
  const v1: V1Routes = (routes) => {
    merchantPaymentRoutes(routes, { auth: ctx.auth, payments, gatewayUrl, pollInMs: config.pollInMs })
    partnerPaymentRoutes(routes, { payments })
  }
  return { payments, events, store, v1 }
}

export type PaymentsArea = ReturnType<typeof paymentsArea>
