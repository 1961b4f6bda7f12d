import { MerchantPaymentStatus } from '@till/contract'
import { z } from 'zod'
import type { CachedStatus } from './status-cache.ts'

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
