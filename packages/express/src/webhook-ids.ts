// Idempotency of the webhook route by `webhook-id`: Till delivers each event at least once, so a redelivery
// (an answer lost on the way back, a retry that overtook a slow first attempt) must run nothing again.
import { WEBHOOK_RETRY_SCHEDULE_SECONDS } from '@till/contract'

/**
 * Remembers which deliveries were processed. The route asks `seen` before processing and calls `remember`
 * only after processing succeeded, so a delivery that failed (Till unreachable, `onEvent` threw) is not
 * remembered and Till's retry is processed in full.
 *
 * In SQL: `seen` is `SELECT 1 FROM till_webhook_ids WHERE id = $1`, `remember` is
 * `INSERT INTO till_webhook_ids (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, and a periodic
 * `DELETE … WHERE processed_at < now() - interval '48 hours'` keeps the table small.
 */
export interface WebhookIdStore {
  /** True when a delivery with this `webhook-id` was processed before (and is not yet forgotten). */
  seen(id: string): Promise<boolean>
  /** Records that the delivery with this `webhook-id` was processed. Must not fail when it is already recorded. */
  remember(id: string): Promise<void>
}

export interface MemoryWebhookIdStoreOptions {
  /** How long an id is remembered; 48 hours by default. */
  ttlMs?: number
  /** The most ids kept; the oldest is forgotten first. 100 000 by default. */
  maxIds?: number
  /** The clock, in milliseconds since the epoch; `Date.now` by default. */
  now?: () => number
}

/** How long Till keeps retrying an event whose deliveries fail: its whole retry schedule, about 28 hours. */
export const TILL_RETRY_SPAN_MS = WEBHOOK_RETRY_SCHEDULE_SECONDS.reduce((sum, seconds) => sum + seconds, 0) * 1000
// An answer lost at any point of that schedule can bring the event back, so ids are kept longer than it.
export const DEFAULT_WEBHOOK_ID_TTL_MS = 48 * 3600 * 1000
const DEFAULT_MAX_IDS = 100_000

/**
 * An in-memory `WebhookIdStore` for one process: bounded in size and in time. Forgetting an id early only
 * costs a second, harmless processing (the order store's compare-and-set still fulfils once).
 */
export function memoryWebhookIdStore(options: MemoryWebhookIdStoreOptions = {}): WebhookIdStore {
  const ttlMs = options.ttlMs ?? DEFAULT_WEBHOOK_ID_TTL_MS
  const maxIds = options.maxIds ?? DEFAULT_MAX_IDS
  const now = options.now ?? Date.now
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new TypeError('memoryWebhookIdStore: ttlMs must be a positive number of milliseconds')
  if (!Number.isInteger(maxIds) || maxIds < 1) throw new TypeError('memoryWebhookIdStore: maxIds must be a positive integer')
  // Insertion order is the order ids were remembered in, so the oldest are always first.
  const ids = new Map<string, number>()
  const forgetExpired = (at: number) => {
    for (const [id, rememberedAt] of ids) {
      if (at - rememberedAt < ttlMs) break
      ids.delete(id)
    }
  }
  return {
    async seen(id) {
      const at = now()
      forgetExpired(at)
      return ids.has(id)
    },
    async remember(id) {
      const at = now()
      forgetExpired(at)
      ids.delete(id)
      ids.set(id, at)
      for (const oldest of ids.keys()) {
        if (ids.size <= maxIds) break
        ids.delete(oldest)
      }
    },
  }
}
