import type { FastifyInstance } from 'fastify'

/**
 * Whether an instance is draining: from the moment `till serve` is told to stop, its health checks answer
 * 503 so a load balancer sends new requests elsewhere, while the requests it still gets are served until
 * the drain time is up (issue 27, point 1).
 */
const draining = new WeakSet<FastifyInstance>()

export function beginDraining(app: FastifyInstance): void {
  draining.add(app)
}

export const isDraining = (app: FastifyInstance): boolean => draining.has(app)

/** Started: every area's start-up hook has run (the last onReady hook of createApp marks it). */
const started = new WeakSet<FastifyInstance>()

export function markStartedWhenReady(app: FastifyInstance): void {
  app.addHook('onReady', async () => {
    started.add(app)
  })
}

export const isStarted = (app: FastifyInstance): boolean => started.has(app)
