import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../core/clock.ts'
import { periodic } from '../core/periodic.ts'
import type { PaymentStore } from './store.ts'

export type ExpirySweeper = {
  /** Expires every pending payment past its deadline; returns how many it expired. */
  sweep(): Promise<number>
  start(): void
  stop(): Promise<void>
}

const BATCH = 500

/**
 * Expiry happens at `expiresAt` whether or not anyone reads the payment: reads expire a due payment on
 * the spot, and this sweeper catches the ones nobody reads, within `intervalMs` of their deadline.
 */
export function expirySweeper(deps: {
  store: PaymentStore
  clock: Clock
  intervalMs: number
  log: FastifyBaseLogger
  /** Told which payments this sweep expired, so pages waiting on them hear of it at once. */
  onExpired?: (ids: string[]) => void
}): ExpirySweeper {
  async function sweep(): Promise<number> {
    let total = 0
    for (;;) {
      const expired = await deps.store.expireDue(deps.clock.now(), BATCH)
      total += expired.length
      if (expired.length > 0) deps.onExpired?.(expired)
      if (expired.length < BATCH) return total
    }
  }

  const timer = periodic({
    intervalMs: deps.intervalMs,
    async run() {
      const count = await sweep()
      if (count > 0) deps.log.info({ count }, 'expired payments past their deadline')
    },
    name: 'expiry sweep',
    log: deps.log,
  })

  return { sweep, start: timer.start, stop: timer.stop }
}
