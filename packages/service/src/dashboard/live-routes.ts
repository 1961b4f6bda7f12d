import type { FastifyInstance } from 'fastify'
import type { SessionGuards } from './guards.ts'
import type { LiveListing, PaymentChange } from './live.ts'

// How long one stream lives before the browser opens another (EventSource reconnects by itself, after
// `retry`): each new stream checks the session again, so a session that ended stops its stream within this.
const STREAM_LIFETIME_MS = 5 * 60_000
// A comment line now and then keeps proxies from closing a quiet stream as idle.
const KEEP_ALIVE_MS = 25_000
const RETRY_MS = 3_000

/**
 * GET /dashboard/api/payments/live: server-sent events for the Payments page (ADR 33). `payment` names a
 * payment made or changed that the user may see; `missed` says changes may have gone unheard (the database's
 * notifications were interrupted). Either way the page reads its list again: the stream is never the data.
 */
export function dashboardLiveRoutes(app: FastifyInstance, deps: { guards: SessionGuards; live: LiveListing }) {
  app.addHook('onReady', () => deps.live.start())
  // Open streams would hold the server's close for ever; end them first.
  app.addHook('preClose', async () => deps.live.endAll())
  app.addHook('onClose', () => deps.live.stop())

  app.get('/dashboard/api/payments/live', async (request, reply) => {
    const { user } = await deps.guards.reading(request)
    reply.hijack()
    const stream = reply.raw
    stream.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'X-Accel-Buffering': 'no',
    })
    const send = (event: string, data: object) => stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
    const end = () => {
      clearInterval(keepAlive)
      clearTimeout(lifetime)
      unfollow()
      stream.end()
    }
    const unfollow = deps.live.follow({
      partnerId: user.partnerId,
      merchantId: user.merchantId,
      changed: (change: PaymentChange) => send('payment', { paymentId: change.id }),
      missed: () => send('missed', {}),
      end,
    })
    const keepAlive = setInterval(() => stream.write(': keep-alive\n\n'), KEEP_ALIVE_MS)
    const lifetime = setTimeout(end, STREAM_LIFETIME_MS)
    keepAlive.unref()
    lifetime.unref()
    request.raw.once('close', end)
    stream.write(`retry: ${RETRY_MS}\n\n`)
    send('ready', {})
  })
}
