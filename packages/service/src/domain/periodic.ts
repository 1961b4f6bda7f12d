/**
 * Runs `run` every `intervalMs`, never two runs at once: a tick that comes while a run is still going is
 * skipped. The timer does not keep the process alive; `stop` waits for a run in progress to finish.
 */
export function periodic(input: { intervalMs: number; run: () => Promise<void>; onError: (error: unknown) => void }) {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined

  function tick() {
    running ??= input
      .run()
      .catch(input.onError)
      .finally(() => {
        running = undefined
      })
  }

  return {
    start() {
      if (timer) return
      timer = setInterval(tick, input.intervalMs)
      timer.unref()
    },
    async stop() {
      clearInterval(timer)
      timer = undefined
      await running
    },
  }
}
