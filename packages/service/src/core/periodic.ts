import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { DatabaseUnavailable } from '../db/port.ts'

/**
 * Runs `run` every `intervalMs`, never two runs at once: a tick that comes while a run is still going is
 * skipped. The timer does not keep the process alive; `stop` waits for a run in progress to finish. A run
 * that fails is tried again at the next tick: after a database outage, each job resumes by itself.
 *
 * The first tick comes at a random point of the first interval. Jobs start together when the app is ready;
 * in step, every one of them would query at the same moment, each on a pooled connection (and so a
 * PostgreSQL backend) of its own, and so would every instance restarted together.
 */
export function periodic(input: {
  name: string
  intervalMs: number
  run: () => Promise<void>
  log: FastifyBaseLogger
  /** Where in the first interval the first tick comes, from 0 to 1. */
  phase?: () => number
}) {
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
      const phase = Math.min(Math.max((input.phase ?? Math.random)(), 0), 1)
      timer = setTimeout(() => {
        tick()
        timer = setInterval(tick, input.intervalMs)
        timer.unref()
      }, phase * input.intervalMs)
      timer.unref()
    },
    async stop() {
      // Either timer: clearTimeout and clearInterval clear both kinds.
      clearTimeout(timer)
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
