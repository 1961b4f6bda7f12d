// While changes may be missed, a waiter looks again this often instead of waiting for a wake-up.
const BLIND_RECHECK_MS = 1_000

/**
 * Wakes status long-polls when a payment changes. It carries no state, only "look again": the waiter
 * reads the status itself, so a missed or doubled wake-up costs one read, never a wrong answer. While
 * other instances' changes cannot be heard (the NOTIFY subscription is down, as in a database outage),
 * waiters look again every second: they see those changes late rather than never, and a database that
 * is gone ends them with a 503 rather than leaving them to wait out their time.
 */
export function statusEvents(options: { blindRecheckMs?: number } = {}) {
  const waiters = new Map<string, Set<() => void>>()
  const blindRecheckMs = options.blindRecheckMs ?? BLIND_RECHECK_MS
  let allHeard = true

  function remove(id: string, wake: () => void) {
    const set = waiters.get(id)
    if (!set) return
    set.delete(wake)
    if (set.size === 0) waiters.delete(id)
  }

  return {
    publish(id: string) {
      const set = waiters.get(id)
      if (!set) return
      waiters.delete(id)
      for (const wake of set) wake()
    },

    /**
     * Resolves on the next change of `id`, after `timeoutMs` (at most a second while changes cannot be
     * heard), or when `signal` aborts — whichever is first.
     */
    next(id: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
      return new Promise((resolve) => {
        if (signal.aborted) return resolve()
        const done = () => {
          clearTimeout(timer)
          signal.removeEventListener('abort', done)
          remove(id, done)
          resolve()
        }
        const timer = setTimeout(done, Math.max(0, allHeard ? timeoutMs : Math.min(timeoutMs, blindRecheckMs)))
        signal.addEventListener('abort', done, { once: true })
        let set = waiters.get(id)
        if (!set) {
          set = new Set()
          waiters.set(id, set)
        }
        set.add(done)
      })
    },

    /** Whether every change is heard; when that stops, everyone waiting looks again at once. */
    hearing(now: boolean) {
      allHeard = now
      if (!now) this.releaseAll()
    },

    /** Wakes everyone: the service is shutting down and long-polls must answer now. */
    releaseAll() {
      const all = [...waiters.values()]
      waiters.clear()
      for (const set of all) for (const wake of set) wake()
    },

    waiting: () => [...waiters.values()].reduce((sum, set) => sum + set.size, 0),
  }
}

export type StatusEvents = ReturnType<typeof statusEvents>
