// The reconciler: for shops that cannot receive webhooks (no public address), or as a safety net beside
// them. It reads, server-side, the status of every order's open payment and fulfils the succeeded ones on
// the same path as the return page and the webhook, so that a buyer who paid and closed the tab is served.
import { TillError } from '@till/client'
import { checkPayment, StatusUnavailable } from './fulfil.ts'
import { type FulfilmentOptions, settleFulfilment } from './options.ts'
import type { PayableOrder } from './orders.ts'

export interface ReconcilerOptions<O extends PayableOrder = PayableOrder> extends FulfilmentOptions<O> {
  /** Milliseconds between the end of one run and the start of the next, once started; 60 000 by default. */
  intervalMs?: number
  /** The most orders one run checks (the `limit` given to `orders.listAwaitingPayment`); 100 by default. */
  batchSize?: number
}

/** What one run did. */
export interface ReconcileRun {
  /** Orders whose payment status was read from Till. */
  checked: number
  /** Orders this run marked paid and fulfilled (`onPaid` ran). */
  fulfilled: number
  /** Orders whose status could not be read; each error went to `onError`. */
  failed: number
}

export interface Reconciler {
  /** One run now (or the run already under way): list the orders awaiting payment, check and fulfil them. */
  runOnce(): Promise<ReconcileRun>
  /** Runs now, then `intervalMs` after each run ends, until `stop`. The timer does not keep Node alive. */
  start(): void
  /** Stops the schedule and waits for a run under way. */
  stop(): Promise<void>
}

const DEFAULT_INTERVAL_MS = 60_000
const DEFAULT_BATCH_SIZE = 100

export function reconciler<O extends PayableOrder>(options: ReconcilerOptions<O>): Reconciler {
  const context = settleFulfilment(options, 'reconciler')
  const { orders } = context
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
  if (typeof orders.listAwaitingPayment !== 'function') {
    throw new TypeError('reconciler: orders.listAwaitingPayment(limit) is required: the orders with a payment and not paid')
  }
  if (!Number.isFinite(intervalMs) || intervalMs < 1)
    throw new TypeError('reconciler: intervalMs must be a positive number of milliseconds')
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new TypeError('reconciler: batchSize must be a positive integer')
  const listAwaitingPayment = orders.listAwaitingPayment.bind(orders)

  const run = async (): Promise<ReconcileRun> => {
    const result: ReconcileRun = { checked: 0, fulfilled: 0, failed: 0 }
    for (const order of await listAwaitingPayment(batchSize)) {
      // A store may list more than it should; only an unpaid order's own payment is ever checked.
      if (order.paymentId === undefined || order.paid === true) continue
      try {
        const checked = await checkPayment(context, order, order.paymentId, 'reconcile')
        result.checked += 1
        if (checked.fulfilled) result.fulfilled += 1
      } catch (error) {
        if (!(error instanceof StatusUnavailable)) throw error
        context.onError(error.cause)
        result.failed += 1
        // Till down, the key refused, rate-limited: every other read would fail alike, so the run ends here
        // (the next one retries). A refusal of this payment alone does not hold up the others.
        if (concernsEveryPayment(error.cause)) break
      }
    }
    return result
  }

  let running: Promise<ReconcileRun> | undefined
  let timer: NodeJS.Timeout | undefined
  // Bumped by start and stop, so that a run still finishing after stop() (or after stop() and start())
  // does not schedule a second chain of runs.
  let chainId = 0
  let started = false

  const runOnce = (): Promise<ReconcileRun> => {
    running ??= run().finally(() => {
      running = undefined
    })
    return running
  }

  const schedule = (delayMs: number, chain: number) => {
    timer = setTimeout(async () => {
      try {
        await runOnce()
      } catch (error) {
        context.onError(error)
      }
      if (started && chain === chainId) schedule(intervalMs, chain)
    }, delayMs)
    timer.unref()
  }

  return {
    runOnce,
    start() {
      if (started) return
      started = true
      chainId += 1
      schedule(0, chainId)
    },
    async stop() {
      started = false
      chainId += 1
      clearTimeout(timer)
      await running?.catch(() => {})
    },
  }
}

function concernsEveryPayment(error: unknown): boolean {
  // The client refusing to send a malformed payment id (a TypeError) concerns that order alone.
  if (error instanceof TypeError) return false
  if (!(error instanceof TillError) || error.status === undefined) return true
  return error.status >= 500 || error.status === 401 || error.status === 403 || error.status === 429
}
