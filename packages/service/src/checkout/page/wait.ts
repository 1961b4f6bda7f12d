// The page's one timer: the controller waits through it (backoffs, retries), and a test with fake timers too.

/** A timer that ends early when the page stops, so nothing waits on a payment that has ended. */
export function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done)
  })
}
