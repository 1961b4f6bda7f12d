/**
 * At most `running` tasks at once, and at most `waiting` queued behind them; a task beyond both is refused
 * at once (`busy` throws), so a burst cannot queue unbounded work. Used where each task is expensive in
 * memory, such as decoding a logo of up to 4096×4096 pixels.
 */
export function concurrencyLimit(input: { running: number; waiting: number; busy: () => Error }) {
  let active = 0
  const queue: (() => void)[] = []

  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= input.running) {
      if (queue.length >= input.waiting) throw input.busy()
      await new Promise<void>((resolve) => queue.push(resolve))
    } else {
      active++
    }
    try {
      return await task()
    } finally {
      // Hand the slot straight to the next waiter, or free it.
      const next = queue.shift()
      if (next) next()
      else active--
    }
  }
}

/**
 * `work` on each item, `limit` at a time. After a failure no more are started, and it rejects once those
 * already running have ended: nothing is still writing when the caller hears of it.
 */
export async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  let failure: { error: unknown } | undefined
  const worker = async () => {
    while (next < items.length && !failure) {
      const item = items[next++] as T
      try {
        await work(item)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  if (failure) throw failure.error
}
