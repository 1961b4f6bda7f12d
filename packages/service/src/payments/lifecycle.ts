import { canTransition, MERCHANT_STATUSES, type MerchantPaymentStatus, TRANSITIONS } from '@till/contract'

// Planning moves along the contract's transition table (TRANSITIONS): the database enforces the same table
// with a trigger, and every status change is a compare-and-set from the allowed source states.
const NEXT: Readonly<Record<MerchantPaymentStatus, readonly MerchantPaymentStatus[]>> = TRANSITIONS

/** The states from which `to` is one legal step away. */
export function sourcesOf(to: MerchantPaymentStatus): MerchantPaymentStatus[] {
  return MERCHANT_STATUSES.filter((from) => canTransition(from, to))
}

/** The shortest chain of legal steps from `from` to `to` (excluding `from`), or undefined if none. */
export function pathBetween(from: MerchantPaymentStatus, to: MerchantPaymentStatus): MerchantPaymentStatus[] | undefined {
  const queue: MerchantPaymentStatus[][] = [[from]]
  const seen = new Set<MerchantPaymentStatus>([from])
  while (queue.length > 0) {
    const path = queue.shift() ?? []
    const last = path[path.length - 1] ?? from
    for (const next of NEXT[last]) {
      if (next === to) return [...path.slice(1), next]
      if (!seen.has(next)) {
        seen.add(next)
        queue.push([...path, next])
      }
    }
  }
  return undefined
}
