import { isFinalStatus, STATUS_PROGRESS, type MerchantPaymentStatus } from '@till/contract'

export type CachedStatus = {
  id: string
  merchantId: string
  partnerId: string
  status: MerchantPaymentStatus
  /** Milliseconds since the epoch. */
  expiresAt: number
}

/**
 * An in-memory cache of payment statuses that status reads can trust. It may lag behind the database
 * (a read then says pending or processing a moment longer) but never runs ahead of it: every entry comes
 * from a committed row or a committed transition, and merging keeps the later state. Terminal entries are
 * final. Non-terminal entries are kept only while every writer's changes reach the cache: while the
 * NOTIFY subscription is connected (any number of instances may share the database).
 */
export function statusCache(
  options: {
    maxEntries?: number
    /** Told of every committed change, cached or not: the long-poll wake-up. */
    onChange?: (id: string) => void
  } = {},
) {
  const max = options.maxEntries ?? 100_000
  const entries = new Map<string, CachedStatus>()
  // Until the subscription is listening, another instance's change could be missed.
  let complete = false
  // Bumped whenever changes may have been missed; a read that began before it must not fill the cache.
  let generation = 0

  function put(entry: CachedStatus) {
    if (max === 0) return
    const known = entries.get(entry.id)
    if (known && STATUS_PROGRESS[known.status] >= STATUS_PROGRESS[entry.status]) return
    if (!known && entries.size >= max) entries.delete(entries.keys().next().value ?? '')
    entries.set(entry.id, entry)
  }

  return {
    /** Call before reading from the database; pass the result to `remember`. */
    generation: () => generation,

    get(id: string): CachedStatus | undefined {
      const entry = entries.get(id)
      return entry && (complete || isFinalStatus(entry.status)) ? entry : undefined
    },

    /** A row read from the database when `since` was the generation. */
    remember(entry: CachedStatus, since: number) {
      if (since !== generation) return
      if (complete || isFinalStatus(entry.status)) put(entry)
    },

    /** A change this process made, or one announced by another instance: already committed. */
    changed(entry: CachedStatus) {
      if (complete || isFinalStatus(entry.status)) put(entry)
      options.onChange?.(entry.id)
    },

    /** Changes may be missed from now on (the subscription dropped): forget what may go stale. */
    incomplete() {
      complete = false
      generation++
      for (const [id, entry] of entries) if (!isFinalStatus(entry.status)) entries.delete(id)
    },

    /** Every change reaches the cache again. */
    completeAgain() {
      generation++
      complete = true
    },

    size: () => entries.size,
  }
}

export type StatusCache = ReturnType<typeof statusCache>
