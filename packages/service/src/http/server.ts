import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { type AppConfig, DEFAULT_HTTP_TIMEOUTS } from '../app-config.ts'
import { randomToken } from '../core/ids.ts'
import { ApiError } from '../errors.ts'
import { answerFrameworkError, clientErrorHandler, closeIfBodyUnread, installErrorHandling, MAX_PARAM_LENGTH } from './error-handler.ts'
import { refuseUnstorableInput } from './storable-input.ts'

/**
 * The HTTP server every area registers on: its limits and timeouts, the headers every answer carries, the
 * one error mapping, and the refusal of input PostgreSQL cannot store. `closing` turns new requests away
 * with a 503 while the service shuts down.
 */
export function httpServer(config: AppConfig, logger: FastifyBaseLogger | undefined) {
  // Unique per process by a random prefix, then a counter: random bytes per request cost 3.5 % of CPU.
  const requestPrefix = `req_${randomToken(5)}`
  let requestCount = 0
  const nextRequestId = () => `${requestPrefix}${(++requestCount).toString(36)}`
  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...config.httpTimeouts }
  const app: FastifyInstance = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
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
  app.addHook('preClose', async () => {
    closing = true
  })
  installErrorHandling(app)
  refuseUnstorableInput(app)
  return { app, closing: () => closing }
}
