import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import type { Database } from './db/port.ts'
import { systemClock, type Clock } from './domain/clock.ts'
import { authenticator } from './http/auth.ts'
import { authenticateRequest } from './http/context.ts'
import { installErrorHandling } from './http/error-handler.ts'
import { merchantPaymentRoutes } from './http/routes/merchant-payments.ts'
import { metaRoutes } from './http/routes/meta.ts'
import { partnerPaymentRoutes } from './http/routes/partner-payments.ts'
import { sandboxRoutes } from './http/routes/sandbox.ts'
import { randomToken } from './domain/ids.ts'
import { expirySweeper } from './payments/expiry-sweeper.ts'
import { paymentService } from './payments/service.ts'
import { followStatusChanges } from './payments/status-notifications.ts'
import { statusCache } from './payments/status-cache.ts'
import { accountStore } from './store/accounts.ts'
import { paymentStore } from './store/payments.ts'

export type AppConfig = {
  sandbox: boolean
  paymentTtlSeconds: number
  /** The status polling interval suggested to merchants (`pollInMs`). */
  pollInMs: number
  /** The absolute base address of the hosted checkout page, no trailing slash: gatewayUrl is `<checkoutUrl>/<paymentId>`. */
  checkoutUrl: () => string
  /** How long an API key record is trusted before it is read again. */
  authCacheTtlMs?: number
  /** How often pending payments past their deadline are expired; 0 leaves it to reads and to callers. */
  expirySweepMs?: number
  bodyLimitBytes?: number
  /** Payment statuses kept in memory for status reads (0: none). */
  statusCacheEntries?: number
}

export type AppDeps = { db: Database; config: AppConfig; clock?: Clock; logger?: FastifyBaseLogger }

/** Builds the Till HTTP application. It does not listen: only the CLI does. */
export async function createApp(deps: AppDeps): Promise<FastifyInstance> {
  const { db, config } = deps
  const clock = deps.clock ?? systemClock
  // Unique per process by a random prefix, then a counter: random bytes per request cost 3.5 % of CPU.
  const requestPrefix = `req_${randomToken(5)}`
  let requestCount = 0
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    bodyLimit: config.bodyLimitBytes ?? 64 * 1024,
    genReqId: () => `${requestPrefix}${(++requestCount).toString(36)}`,
    requestIdHeader: false,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true },
  })
  // The API speaks JSON only; Fastify would otherwise hand a text/plain body to the handlers.
  app.removeContentTypeParser('text/plain')
  app.decorateRequest('principal', undefined)
  app.decorateRequest('apiVersion', undefined)
  app.addHook('onSend', async (request, reply) => {
    reply.header('Request-Id', request.id)
    reply.header('Cache-Control', 'no-store')
  })
  installErrorHandling(app)

  const accounts = accountStore(db)
  const store = paymentStore(db)
  const auth = authenticator({ accounts, ttlMs: config.authCacheTtlMs ?? 5_000 })
  // Embedded PGlite has one writer, this process; PostgreSQL needs the other instances' NOTIFYs first.
  const cache = statusCache({ complete: !db.subscribe, maxEntries: config.statusCacheEntries ?? 100_000 })
  if (db.subscribe) {
    const subscribe = db.subscribe.bind(db)
    let unsubscribe: (() => Promise<void>) | undefined
    app.addHook('onReady', async () => {
      unsubscribe = await followStatusChanges(subscribe, cache, app.log)
    })
    app.addHook('onClose', async () => unsubscribe?.())
  }
  const payments = paymentService({
    store,
    clock,
    cache,
    policy: { paymentTtlSeconds: config.paymentTtlSeconds, allowLoopbackRedirects: config.sandbox },
  })

  metaRoutes(app, { db, sandbox: config.sandbox })
  await app.register(async (v1) => {
    v1.addHook('onRequest', authenticateRequest(auth))
    const gatewayUrl = (paymentId: string) => `${config.checkoutUrl()}/${paymentId}`
    merchantPaymentRoutes(v1, { auth, payments, gatewayUrl, pollInMs: config.pollInMs })
    partnerPaymentRoutes(v1, { payments })
    if (config.sandbox) sandboxRoutes(v1, { auth, payments, accounts, clock })
  })

  const sweepMs = config.expirySweepMs ?? 1_000
  if (sweepMs > 0) {
    const sweeper = expirySweeper({ store, clock, intervalMs: sweepMs, log: app.log })
    app.addHook('onReady', async () => sweeper.start())
    app.addHook('onClose', async () => sweeper.stop())
  }
  return app
}
