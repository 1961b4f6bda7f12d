import type { RunningCluster } from './cluster.ts'

/** At most `max` restarts within any `withinMs`: a server that crashes now and then is restarted, a crash loop is not. */
export type RestartPolicy = { max: number; withinMs: number }

export const DEFAULT_RESTART_POLICY: RestartPolicy = { max: 5, withinMs: 10 * 60_000 }

/**
 * Keeps the embedded server running: when it stops on its own (it crashed, or someone killed it), starts
 * it again on the same data and port, so Till's connections find it where they left it (docs/decisions/
 * 0006). `gaveUp` settles, with the reason and the server's log, only when a restart fails or the policy's
 * budget is spent; then Till exits with that message.
 */
export function keepRunning(input: {
  first: RunningCluster
  /** Starts the server again; `signal` aborts when Till stops meanwhile, so a stop never waits out the retries. */
  restart: (signal: AbortSignal) => Promise<RunningCluster>
  policy: RestartPolicy
  log: (message: string) => void
  now?: () => number
}) {
  const now = input.now ?? Date.now
  const { max, withinMs } = input.policy
  const minutes = withinMs / 60_000
  const window = Number.isInteger(minutes) ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${withinMs / 1000} s`
  const restarts: number[] = []
  let current = input.first
  let stopping = false
  let restarting: Promise<void> | undefined
  const stopped = new AbortController()
  let giveUp: (reason: string) => void = () => {}
  const gaveUp = new Promise<string>((resolve) => {
    giveUp = resolve
  })

  async function recover(reason: string): Promise<void> {
    const at = now()
    while (restarts.length > 0 && (restarts[0] ?? 0) <= at - withinMs) restarts.shift()
    if (restarts.length >= max) {
      giveUp(`${reason}\nIt was restarted ${restarts.length} times within ${window}; Till does not try again.`)
      return
    }
    restarts.push(at)
    input.log(
      `the embedded PostgreSQL server stopped: ${reason}\n` +
        `restarting it on the same data (restart ${restarts.length} of at most ${max} within ${window})`,
    )
    const started = performance.now()
    try {
      const next = await input.restart(stopped.signal)
      if (stopping) return await next.stop()
      current = next
      watch(next)
      input.log(`the embedded PostgreSQL server is running again, ${Math.round(performance.now() - started)} ms after it stopped`)
    } catch (error) {
      if (stopping) return
      giveUp(`${reason}\nRestarting it failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  function watch(cluster: RunningCluster) {
    void cluster.exited.then((reason) => {
      if (!stopping) restarting = recover(reason)
    })
  }
  watch(input.first)

  return {
    gaveUp,
    /** How many restarts the current window holds. */
    restarts: () => restarts.length,
    async stop(): Promise<void> {
      stopping = true
      stopped.abort()
      await restarting
      await current.stop()
    },
  }
}
