import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import type { Database } from './db/port.ts'
import { systemClock, type Clock } from './domain/clock.ts'
import { authenticator } from './http/auth.ts'
import { authenticateRequest } from './http/context.ts'
import {
  answerFrameworkError,
  clientErrorHandler,
  closeIfBodyUnread,
  installErrorHandling,
  MAX_PARAM_LENGTH,
} from './http/error-handler.ts'
import { merchantPaymentRoutes } from './http/routes/merchant-payments.ts'
import { merchantRoutes } from './http/routes/merchants.ts'
import { webhookEndpointRoutes } from './http/routes/webhook-endpoints.ts'
import { metaRoutes } from './http/routes/meta.ts'
import { partnerPaymentRoutes } from './http/routes/partner-payments.ts'
import { paymentListingRoutes } from './http/routes/payment-listing.ts'
import { sandboxRoutes } from './http/routes/sandbox.ts'
import { recordServedOperations } from './http/served-operations.ts'
import { refuseUnstorableInput } from './http/storable-input.ts'
import { listingCursors } from './listing/cursor.ts'
import { statsCompactor } from './listing/rollups.ts'
import { paymentListing } from './listing/service.ts'
import { logoFetcher, type LogoFetchOptions } from './logos/fetch.ts'
import { logoImporter } from './logos/importer.ts'
import { logoStore } from './logos/store.ts'
import { logoUrls } from './logos/urls.ts'
import { idempotencyKeys } from './merchants/idempotency.ts'
import { merchantService } from './merchants/service.ts'
import { webhookDispatcher } from './webhooks/dispatcher.ts'
import { secretSealer } from './webhooks/secrets.ts'
import { webhookSender } from './webhooks/sender.ts'
import { webhookService } from './webhooks/service.ts'
import { randomToken } from './domain/ids.ts'
import { expirySweeper } from './payments/expiry-sweeper.ts'
import { paymentService } from './payments/service.ts'
import { followStatusChanges } from './payments/status-notifications.ts'
import { statusCache } from './payments/status-cache.ts'
import { checkoutAssets } from '@till/checkout-page/build'
import { checkoutTokens } from './checkout/token.ts'
import { checkoutRoutes } from './http/routes/checkout.ts'
import { rateLimiter, type RateLimit } from './http/rate-limit.ts'
import { statusEvents } from './payments/status-events.ts'
import { paymentRails, type PaymentRail } from './rails/rail.ts'
import { sandboxRail } from './sandbox/rail.ts'
import type { EvmConfig } from './evm/config.ts'
import type { FollowerTiming } from './evm/follower.ts'
import { lateTransferViews } from './evm/late-transfers.ts'
import { ApiError } from './errors.ts'
import { accountStore } from './store/accounts.ts'
import { serviceSecret } from './store/secrets.ts'
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
  /** The client address comes from X-Forwarded-For: set it behind a reverse proxy, never otherwise. */
  trustProxy?: boolean
  /** How long the sandbox's slow test wallet keeps a payment processing. */
  sandboxSlowConfirmMs?: number
  /**
   * The slow test wallet's confirmation waits, however long, for POST /v1/sandbox/payments/{id}/confirm:
   * tests release it when they are ready instead of racing `sandboxSlowConfirmMs`.
   */
  sandboxHoldConfirmations?: boolean
  /** Requests per window the checkout page's routes take per client address and per payment. */
  checkoutRateLimits?: Partial<CheckoutRateLimits>
  /** Requests per window /v1 takes per API key, and failed authentications per client address. */
  apiRateLimits?: Partial<ApiRateLimits>
  /** How long a client has to send a request, and keeps an idle connection; tests set tiny values. */
  httpTimeouts?: Partial<HttpTimeouts>
}

export type CheckoutRateLimits = { perIp: RateLimit; perPayment: RateLimit; actionsPerPayment: RateLimit }

// A page load is 3 requests and a long-poll one every 25 s; a buyer retrying by hand stays far below these.
const DEFAULT_CHECKOUT_LIMITS: CheckoutRateLimits = {
  perIp: { limit: 600, windowMs: 60_000 },
  perPayment: { limit: 240, windowMs: 60_000 },
  actionsPerPayment: { limit: 20, windowMs: 60_000 },
}

export type ApiRateLimits = { perKey: RateLimit; authFailuresPerAddress: RateLimit }

// Ceilings, not shares: one instance serves about 30,000 status reads a second to `pnpm bench` (one key,
// one address), a merchant polling a thousand payments every 2 s makes 30,000 requests a minute. Sharing
// an instance fairly between partners takes lower values, set by its operator (ADR 14). Failures are few
// by nature: a client with a wrong key gets its answer and should stop.
const DEFAULT_API_LIMITS: ApiRateLimits = {
  perKey: { limit: 3_000_000, windowMs: 60_000 },
  authFailuresPerAddress: { limit: 60, windowMs: 60_000 },
}

export type HttpTimeouts = {
  /** From the first byte of a request (or the connection) to the end of its headers. */
  headersMs: number
  /** From the first byte of a request to the end of its body; responses, long-polls included, are not counted. */
  requestMs: number
  /** How long a connection may stay idle between requests. */
  keepAliveMs: number
}

// A stalled or trickling client must not hold a socket for long, yet 30 s carries the 64 KiB body limit
// over a poor mobile link. Idle connections outlive the 60 s idle timeout of common proxies and load
// balancers, so that they close first rather than reuse a connection Till is closing.
const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000 }

export type AppDeps = {
  db: Database
  config: AppConfig
  clock?: Clock
  logger?: FastifyBaseLogger
  /**
   * How outbound requests (logo fetches, webhook deliveries) resolve and trust hosts beyond the config
   * (tests: an injected DNS lookup, a test CA). Loopback hosts are allowed in sandbox mode only, whatever
   * is given here.
   */
  outbound?: Pick<LogoFetchOptions, 'lookup' | 'ca' | 'onDial'>
  /** Real payments on EVM chains: the operator's checked configuration (`till serve --config`). */
  evm?: { config: EvmConfig; timing?: Partial<FollowerTiming> }
}

// Blocks come every 2 to 12 s on the chains Till knows; a transaction missing for 30 minutes is gone (ADR 23).
const DEFAULT_FOLLOWER_TIMING: FollowerTiming = { intervalMs: 2_000, recheckMs: 2_000, dropAfterMs: 30 * 60_000 }

/** Builds the Till HTTP application. It does not listen: only the CLI does. */
export async function createApp(deps: AppDeps): Promise<FastifyInstance> {
  const { db, config } = deps
  const clock = deps.clock ?? systemClock
  // Unique per process by a random prefix, then a counter: random bytes per request cost 3.5 % of CPU.
  const requestPrefix = `req_${randomToken(5)}`
  let requestCount = 0
  const nextRequestId = () => `${requestPrefix}${(++requestCount).toString(36)}`
  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...config.httpTimeouts }
  const app: FastifyInstance = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    bodyLimit: config.bodyLimitBytes ?? 64 * 1024,
    genReqId: nextRequestId,
    requestIdHeader: false,
    // Fastify's 503 while closing is not in the spec's shape; the onRequest hook below answers instead.
    return503OnClosing: false,
    trustProxy: config.trustProxy ?? false,
    // Fastify's default of 0 lets a client take forever over its body.
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // Node looks for late requests only this often (30 s by default, which would make 10 s up to 40 s).
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(timeouts.headersMs / 4))),
    },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: clientErrorHandler({ requestId: nextRequestId, log: () => app.log }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
  })
  // A client may half-close (send FIN) once its request is sent; Node's default then drops the answer,
  // though the handler runs on and may create the payment. Answer it instead, then close. The property is
  // http.Server's own, not in its type.
  Object.assign(app.server, { httpAllowHalfOpen: true })
  // The API speaks JSON only; Fastify would otherwise hand a text/plain body to the handlers.
  app.removeContentTypeParser('text/plain')
  app.decorateRequest('principal', undefined)
  app.decorateRequest('apiVersion', undefined)
  // Callback style rather than async: this runs on every response, and a promise per call shows in the bench.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('Request-Id', request.id)
    if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store')
    closeIfBodyUnread(request, reply)
    done(null, payload)
  })
  let closing = false
  app.addHook('onRequest', (_request, _reply, done) => {
    if (closing) done(new ApiError('service_unavailable', 'The service is shutting down; retry shortly.'))
    else done()
  })
  installErrorHandling(app)
  refuseUnstorableInput(app)

  const accounts = accountStore(db)
  const store = paymentStore(db)
  const auth = authenticator({ accounts, ttlMs: config.authCacheTtlMs ?? 5_000 })
  const events = statusEvents()
  // Other instances may write too: non-terminal statuses are trusted only while their NOTIFYs arrive.
  const cache = statusCache({
    maxEntries: config.statusCacheEntries ?? 100_000,
    onChange: (id) => events.publish(id),
  })
  let unsubscribe: (() => Promise<void>) | undefined
  app.addHook('onReady', async () => {
    unsubscribe = await followStatusChanges(db.subscribe.bind(db), cache, app.log, (hearing) => events.hearing(hearing))
  })
  app.addHook('onClose', async () => unsubscribe?.())
  const payments = paymentService({
    db,
    clock,
    cache,
    policy: { paymentTtlSeconds: config.paymentTtlSeconds, allowLoopbackRedirects: config.sandbox },
  })

  const served = recordServedOperations(app)
  const sealer = secretSealer(await serviceSecret(db, 'webhook_secret_key', clock.now()))
  const outboundPolicy = { allowLoopback: config.sandbox }
  const logoUrl = logoUrls(config.checkoutUrl)
  const logos = logoStore(db)
  const merchants = merchantService({
    db,
    clock,
    logoUrl,
    idempotency: idempotencyKeys({ db, clock }),
    importLogo: logoImporter({ fetch: logoFetcher({ ...deps.outbound, allowLoopback: config.sandbox }), store: logos, clock }),
  })
  const listing = paymentListing({
    db,
    cursors: listingCursors(await serviceSecret(db, 'listing_cursor_key', clock.now())),
    async settleDeadlines(partnerId) {
      while ((await store.expireDue(clock.now(), 500, undefined, partnerId)).length === 500) {}
    },
    logoUrl,
  })
  metaRoutes(app, { db, sandbox: config.sandbox, served })
  const apiLimits = { ...DEFAULT_API_LIMITS, ...config.apiRateLimits }
  const apiLimiters = {
    perKey: rateLimiter({ ...apiLimits.perKey, clock }),
    authFailuresPerAddress: rateLimiter({ ...apiLimits.authFailuresPerAddress, clock }),
  }
  await app.register(async (v1) => {
    v1.addHook('onRequest', authenticateRequest(auth, apiLimiters))
    const gatewayUrl = (paymentId: string) => `${config.checkoutUrl()}/${paymentId}`
    merchantPaymentRoutes(v1, { auth, payments, gatewayUrl, pollInMs: config.pollInMs })
    partnerPaymentRoutes(v1, { payments })
    paymentListingRoutes(v1, { auth, listing })
    merchantRoutes(v1, { merchants, lateTransfers: lateTransferViews({ db, config: deps.evm?.config }) })
    webhookEndpointRoutes(v1, {
      auth,
      webhooks: webhookService({ db, clock, sealer, logoUrl, policy: outboundPolicy, lookup: deps.outbound?.lookup }),
    })
    if (config.sandbox) sandboxRoutes(v1, { auth, payments, accounts, clock, logoUrl })
  })

  const limits = { ...DEFAULT_CHECKOUT_LIMITS, ...config.checkoutRateLimits }
  app.addHook('preClose', async () => {
    // Long-polls would hold the close until they time out; answer them now.
    closing = true
    events.releaseAll()
  })
  const sweepMs = config.expirySweepMs ?? 1_000
  // The rails buyers pay through: the EVM rail, when configured, on real networks for live partners or on
  // test networks for sandbox partners; the sandbox's test wallets for sandbox partners otherwise.
  const railList: PaymentRail[] = []
  if (config.sandbox && !deps.evm?.config.sandbox) {
    railList.push(
      sandboxRail({
        db,
        payments,
        accounts,
        clock,
        log: app.log,
        slowConfirmMs: config.sandboxHoldConfirmations ? 'held' : (config.sandboxSlowConfirmMs ?? 8_000),
        // The slow test wallet's confirmations, checked a few times a second so "a few seconds" is exact enough.
        confirmIntervalMs: Math.min(sweepMs, 250),
      }),
    )
  }
  if (deps.evm) {
    // viem and the rail load only where a configuration names networks (bench/startup).
    const { evmRail } = await import('./evm/rail.ts')
    const timing = { ...DEFAULT_FOLLOWER_TIMING, ...deps.evm.timing }
    railList.push(evmRail({ db, payments, accounts, clock, log: app.log, config: deps.evm.config, timing }))
  }
  const rails = paymentRails(railList)
  app.addHook('onReady', async () => rails.start())
  app.addHook('onClose', async () => rails.stop())
  await checkoutRoutes(app, {
    payments,
    accounts,
    tokens: checkoutTokens(await serviceSecret(db, 'checkout_token_key', clock.now())),
    events,
    assets: await checkoutAssets(),
    clock,
    rails,
    https: () => config.checkoutUrl().startsWith('https:'),
    limits: {
      perIp: rateLimiter({ ...limits.perIp, clock }),
      perPayment: rateLimiter({ ...limits.perPayment, clock }),
      actionsPerPayment: rateLimiter({ ...limits.actionsPerPayment, clock }),
    },
    closing: () => closing,
    checkoutUrl: config.checkoutUrl,
    logoUrl,
    logos,
  })

  if (sweepMs > 0) {
    const sweeper = expirySweeper({
      store,
      clock,
      intervalMs: sweepMs,
      log: app.log,
      onExpired: (ids) => {
        for (const id of ids) events.publish(id)
      },
    })
    app.addHook('onReady', async () => sweeper.start())
    app.addHook('onClose', async () => sweeper.stop())
    const dispatcher = webhookDispatcher({
      db,
      clock,
      sealer,
      logoUrl,
      send: webhookSender({ policy: outboundPolicy, ...deps.outbound }),
      log: app.log,
      intervalMs: sweepMs,
    })
    app.addHook('onReady', async () => dispatcher.start())
    app.addHook('onClose', async () => dispatcher.stop())
    const compactor = statsCompactor({ db, intervalMs: sweepMs, log: app.log })
    app.addHook('onReady', async () => compactor.start())
    app.addHook('onClose', async () => compactor.stop())
  }
  return app
}
