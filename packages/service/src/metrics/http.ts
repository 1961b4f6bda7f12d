import type { FastifyInstance } from 'fastify'
import type { TillMetrics } from './catalog.ts'

/**
 * Counts and times every answer of the public port by its route pattern (`/v1/payments/:paymentId`, not the
 * path: one series per route, however many payments). A request no route matched counts as `unmatched`.
 */
export function measureRequests(app: FastifyInstance, metrics: TillMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched'
    const status = String(reply.statusCode)
    metrics.httpRequests.inc({ method: request.method, route, status })
    metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000)
    if (reply.statusCode === 429) metrics.rateLimited.inc({ route })
  })
}
