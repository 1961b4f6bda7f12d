import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Queryable } from '../db/port.ts'
import type { ReadRouter } from '../db/replica.ts'
import { header } from '../http/context.ts'

// Holds the primary's WAL position after a change made from this browser (hex). Only a hint of what to
// wait for: a forged one can only send this browser's own reads to the primary.
const WROTE_COOKIE = 'till_wrote'

/**
 * Read your writes on the dashboard (ADR 36), whichever instance answers next: every change it makes sets a
 * cookie with the primary's position after it, for as long as the replica may lag. While it is there, that
 * browser's pages read the replica only once it has replayed that far; other browsers read it as usual.
 */
export function dashboardReads(app: FastifyInstance, reads: ReadRouter, options: { secure: () => boolean }) {
  // Without a replica there is nothing to pin, and no hook on every answer.
  if (reads.replicated) {
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.method === 'GET' || !request.url.startsWith('/dashboard/api/') || reply.statusCode >= 400) return payload
      const at = await reads.position().catch(() => undefined)
      if (at === undefined) return payload
      const maxAge = Math.ceil(reads.maxLagMs / 1000) + 1
      const secure = options.secure() ? '; Secure' : ''
      reply.header(
        'Set-Cookie',
        `${WROTE_COOKIE}=${at.toString(16)}; Max-Age=${maxAge}; Path=/dashboard/api; HttpOnly; SameSite=Strict${secure}`,
      )
      return payload
    })
  }

  /** The reads of one request: the replica once it holds this browser's last change, else the primary. */
  return (request: FastifyRequest): Queryable => {
    const cookie = (header(request, 'Cookie') ?? '').split(';').find((part) => part.trim().startsWith(`${WROTE_COOKIE}=`))
    const value = cookie?.split('=')[1]?.trim() ?? ''
    return reads.seeing(/^[0-9a-f]{1,16}$/.test(value) ? BigInt(`0x${value}`) : undefined)
  }
}

export type DashboardReads = ReturnType<typeof dashboardReads>
