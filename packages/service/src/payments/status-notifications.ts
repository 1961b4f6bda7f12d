import { MerchantPaymentStatus } from '@till/contract'
import type { FastifyBaseLogger } from 'fastify'
import { z } from 'zod'
import type { Database } from '../db/port.ts'
import type { CachedStatus, StatusCache } from './status-cache.ts'

/** The channel of migrations/0002_status_notify.sql. */
export const STATUS_CHANNEL = 'till_payment_status'

const Notification = z.object({
  id: z.string(),
  merchantId: z.string(),
  partnerId: z.string(),
  status: MerchantPaymentStatus,
  expiresAt: z.number().int(),
})

/** A status change announced by PostgreSQL, or undefined for anything else on the channel. */
export function parseStatusNotification(payload: string): CachedStatus | undefined {
  try {
    const parsed = Notification.safeParse(JSON.parse(payload))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/**
 * Feeds other instances' status changes into `cache`, and tells it when changes may be missed (the
 * listening connection dropped) and when they flow again; `hearing` is told the same (the long-polls'
 * wake-ups). Returns the unsubscribe function.
 */
export function followStatusChanges(
  subscribe: Database['subscribe'],
  cache: StatusCache,
  log: FastifyBaseLogger,
  hearing: (now: boolean) => void = () => {},
): Promise<() => Promise<void>> {
  return subscribe(STATUS_CHANNEL, {
    message(payload) {
      const change = parseStatusNotification(payload)
      if (change) cache.changed(change)
    },
    connected() {
      cache.completeAgain()
      hearing(true)
    },
    lost(error) {
      cache.incomplete()
      hearing(false)
      log.warn({ err: error }, 'status notifications interrupted: reading statuses from the database until they resume')
    },
  })
}
