import type { ChainObserver } from '../evm/index.ts'
import type { PaymentObserver } from '../payments/index.ts'
import type { TillMetrics } from './catalog.ts'

/** Payments created and moved, counted where the statements run, whichever path made the change. */
export function paymentObserver(metrics: TillMetrics): PaymentObserver {
  return {
    created: () => metrics.paymentsCreated.inc(),
    moved: (change, count) => metrics.paymentTransitions.inc(change, count),
  }
}

/** What the chain watcher and the follower saw: each network's head, and their RPC calls that failed. */
export function chainObserver(metrics: TillMetrics): ChainObserver {
  return {
    head: (network, block) => metrics.chainHeads.set(network, block),
    rpcFailed: (network, job) => metrics.chainRpcErrors.inc({ network, job }),
  }
}
