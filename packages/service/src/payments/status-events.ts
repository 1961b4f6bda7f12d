/**
 * Wakes status long-polls when a payment changes. It carries no state, only "look again": the waiter
 * reads the status itself, so a missed or doubled wake-up costs one read, never a wrong answer.
 */
export function statusEvents() {
  const waiters = new Map<string, Set<() => void>>()

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

    /** Resolves on the next change of `id`, after `timeoutMs`, or when `signal` aborts — whichever is first. */
    next(id: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
      return new Promise((resolve) => {
        if (signal.aborted) return resolve()
        const done = () => {
          clearTimeout(timer)
          signal.removeEventListener('abort', done)
          remove(id, done)
          resolve()
        }
        const timer = setTimeout(done, Math.max(0, timeoutMs))
        signal.addEventListener('abort', done, { once: true })
        let set = waiters.get(id)
        if (!set) {
          set = new Set()
          waiters.set(id, set)
        }
        set.add(done)
      })
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
