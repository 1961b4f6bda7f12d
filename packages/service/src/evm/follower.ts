import type { FastifyBaseLogger } from 'fastify'
import { type Database, DatabaseUnavailable } from '../db/port.ts'
import type { Clock } from '../core/clock.ts'
import { jobFailed, periodic } from '../core/periodic.ts'
import type { PaymentService } from '../payments/index.ts'
import type { EvmChains } from './chains.ts'
import { evmTransfers, type Watch } from './transfers.ts'
import { settle } from './settle.ts'
import type { ChainObserver } from './watcher.ts'

export type FollowerTiming = {
  /** How often due watches are checked; 0 leaves it to `runOnce` (tests) and to submissions' nudges. */
  intervalMs: number
  /** How long after a check the same transaction is checked again. */
  recheckMs: number
  /**
   * How long a transaction may stay unmined and out of the node's mempool (dropped, or reorganised out and
   * not mined again) before its payment fails; until then the payment stays processing (ADR 23).
   */
  dropAfterMs: number
}

// A watch is leased while it is checked, one at a time: a check is a few RPC calls that each time out at
// 10 s, so a minute covers it, and an instance that crashes holds up one watch, for a minute at most.
const LEASE_MS = 60_000
// A watch the follower cannot check (its network left the configuration) is looked at again this much later.
const PARKED_MS = 60 * 60_000

/**
 * Follows processing payments' transactions until they have their network's confirmations. The watch
 * list is in the database: a restart finds it again, and instances split it by lease (SKIP LOCKED).
 */
export function evmFollower(deps: {
  db: Database
  payments: PaymentService
  chains: EvmChains
  clock: Clock
  log: FastifyBaseLogger
  timing: FollowerTiming
  observe?: ChainObserver
}) {
  const watches = evmTransfers(deps.db)

  async function check(watch: Watch): Promise<void> {
    const payment = await deps.payments.readForCheckout(watch.paymentId)
    if (payment?.status !== 'processing') return watches.unwatch(watch.paymentId)
    const now = deps.clock.now()
    if (!deps.chains.network(watch.network) || !payment.paid) {
      deps.log.warn(
        { paymentId: watch.paymentId, network: watch.network },
        'a followed payment cannot be checked: its network is not configured',
      )
      return watches.reschedule({ ...watch, next: new Date(now.getTime() + PARKED_MS) })
    }
    await settle({ ...deps, ...deps.timing }, watch, payment)
  }

  let stopping = false

  /**
   * Checks every watch due when it starts, one at a time; resolves with how many it checked. Watches it
   * reschedules come due after it started, so it ends however long its checks take.
   */
  async function runOnce(): Promise<number> {
    let checked = 0
    const now = deps.clock.now()
    // Each watch once a run: one it rescheduled for now is for the next run.
    const seen: string[] = []
    while (!stopping) {
      const [watch] = await watches.lease(now, new Date(deps.clock.now().getTime() + LEASE_MS), 1, seen)
      if (!watch) break
      seen.push(watch.paymentId)
      try {
        await check(watch)
      } catch (error) {
        // The database is away: the whole run waits for it, rather than failing watch after watch.
        if (error instanceof DatabaseUnavailable) throw error
        // The RPC failed or timed out: the lease brings the watch back later.
        deps.observe?.rpcFailed(watch.network, 'follower')
        deps.log.warn({ err: error, paymentId: watch.paymentId }, 'checking a transaction failed; it is checked again later')
      }
      checked++
    }
    return checked
  }

  const timer =
    deps.timing.intervalMs > 0
      ? periodic({
          intervalMs: deps.timing.intervalMs,
          run: async () => {
            await runOnce()
          },
          name: 'following transactions',
          log: deps.log,
        })
      : undefined

  let nudged: Promise<unknown> | undefined
  return {
    runOnce,
    /** A transaction was just submitted: check now rather than at the next tick (when ticking at all). */
    nudge() {
      if (!timer || stopping) return
      nudged ??= runOnce()
        .catch(jobFailed(deps.log, 'following transactions'))
        .finally(() => {
          nudged = undefined
        })
    },
    start: () => {
      stopping = false
      timer?.start()
    },
    stop: async () => {
      stopping = true
      await timer?.stop()
      await nudged
    },
  }
}

export type EvmFollower = ReturnType<typeof evmFollower>
