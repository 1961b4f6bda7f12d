import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { DatabaseUnavailable } from '../db/port.ts'

/**
 * Runs `run` every `intervalMs`, never two runs at once: a tick that comes while a run is still going is
 * skipped. The timer does not keep the process alive; `stop` waits for a run in progress to finish. A run
 * that fails is tried again at the next tick: after a database outage, each job resumes by itself.
 */
export function periodic(input: { name: string; intervalMs: number; run: () => Promise<void>; log: FastifyBaseLogger }) {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined

  function tick() {
    running ??= input
      .run()
      .catch(jobFailed(input.log, input.name))
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

/**
 * Logs a background job's failure. A database outage is logged once by the database itself, not by every
 * job at every tick.
 */
export function jobFailed(log: FastifyBaseLogger, name: string) {
  return (error: unknown) => {
    if (error instanceof DatabaseUnavailable) log.debug({ err: error }, `${name} waits for the database`)
    else log.error({ err: error }, `${name} failed; retrying at the next tick`)
  }
}

/** A background job's life tied to the app's: started once it is ready, stopped when it closes. */
export function runsWith(app: FastifyInstance, job: { start(): void | Promise<void>; stop(): Promise<void> }): void {
  app.addHook('onReady', async () => job.start())
  app.addHook('onClose', async () => job.stop())
}
