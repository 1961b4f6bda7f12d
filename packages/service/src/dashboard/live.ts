import type { FastifyBaseLogger } from 'fastify'
import { z } from 'zod'
import type { Database } from '../db/port.ts'

/** The channel of migrations/0020_dashboard_live.sql. */
export const LISTING_CHANNEL = 'till_payment_listing'

const Change = z.object({ id: z.string(), merchantId: z.string(), partnerId: z.string() })
/** A payment made or whose status changed, on any instance sharing the database. */
export type PaymentChange = z.infer<typeof Change>
/** Who follows: a partner's user, limited to one merchant or not. */
export type Follower = {
  partnerId: string
  merchantId: string | null
  changed: (change: PaymentChange) => void
  missed: () => void
  /** The service is closing: end the stream now rather than hold the close open. */
  end: () => void
}

/**
 * The dashboard's live Payments page (ADR 33): each instance LISTENs on one channel and hands every change
 * to the followers who may see that payment. A change carries ids only: the page reads the list itself, so
 * a missed or doubled change costs a read, never a wrong row. When the listening connection drops, every
 * follower is told it may have missed changes, and once more when it is back.
 */
export function liveListing(db: Pick<Database, 'subscribe'>, log: FastifyBaseLogger) {
  const followers = new Set<Follower>()
  let unsubscribe: (() => Promise<void>) | undefined

  const sees = (follower: Follower, change: PaymentChange) =>
    follower.partnerId === change.partnerId && (follower.merchantId === null || follower.merchantId === change.merchantId)

  return {
    async start(): Promise<void> {
      unsubscribe = await db.subscribe(LISTING_CHANNEL, {
        message(payload) {
          let change: PaymentChange
          try {
            change = Change.parse(JSON.parse(payload))
          } catch {
            return
          }
          for (const follower of followers) if (sees(follower, change)) follower.changed(change)
        },
        connected() {
          for (const follower of followers) follower.missed()
        },
        lost(error) {
          log.warn({ err: error }, 'live payment changes interrupted: open dashboards read again once they resume')
          for (const follower of followers) follower.missed()
        },
      })
    },
    async stop(): Promise<void> {
      await unsubscribe?.()
    },
    /** Follows changes until the returned function is called. */
    follow(follower: Follower): () => void {
      followers.add(follower)
      return () => followers.delete(follower)
    },
    following: () => followers.size,
    endAll(): void {
      for (const follower of [...followers]) follower.end()
    },
  }
}

export type LiveListing = ReturnType<typeof liveListing>
