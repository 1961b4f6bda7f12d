import type { MerchantPaymentStatus } from '@till/contract'

/**
 * The one transition rule (spec section 3). The database enforces the same table with a trigger and every
 * status change is a compare-and-set from the allowed source states; this copy lets callers plan a move
 * and explain a refusal before touching storage.
 */
export const NEXT_STATES: Readonly<Record<MerchantPaymentStatus, readonly MerchantPaymentStatus[]>> = {
  pending: ['processing', 'failed', 'expired'],
  processing: ['succeeded', 'failed'],
  succeeded: [],
  failed: [],
  expired: [],
}

export function canTransition(from: MerchantPaymentStatus, to: MerchantPaymentStatus): boolean {
  return NEXT_STATES[from].includes(to)
}

/** The states from which `to` is one legal step away. */
export function sourcesOf(to: MerchantPaymentStatus): MerchantPaymentStatus[] {
  return (Object.keys(NEXT_STATES) as MerchantPaymentStatus[]).filter((from) => canTransition(from, to))
}

/** The shortest chain of legal steps from `from` to `to` (excluding `from`), or undefined if none. */
export function pathBetween(from: MerchantPaymentStatus, to: MerchantPaymentStatus): MerchantPaymentStatus[] | undefined {
  const queue: MerchantPaymentStatus[][] = [[from]]
  const seen = new Set<MerchantPaymentStatus>([from])
  while (queue.length > 0) {
    const path = queue.shift() ?? []
    const last = path[path.length - 1] ?? from
    for (const next of NEXT_STATES[last]) {
      if (next === to) return [...path.slice(1), next]
      if (!seen.has(next)) {
        seen.add(next)
        queue.push([...path, next])
      }
    }
  }
  return undefined
}
