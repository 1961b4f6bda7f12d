// The one status vocabulary (spec section 3): the values of both views, how a payment moves between them,
// which are final, and how the merchant view maps onto the listing's. Every package, the checkout page's
// browser bundle included, imports it; none writes a list of its own, and the database's CHECK constraint
// and transition trigger are tested against it (packages/service/src/db/status-rules.int.test.ts).
// No zod here, at run time or otherwise: the checkout page imports this module alone.

/**
 * A payment's statuses, in lifecycle order: the merchant view's five of spec section 3, and `cancelled`, a
 * pending payment the merchant called off (issue 24). The merchant view of 2026-02-18 has no `cancelled` and
 * reads it as `failed` (merchantViewStatus in status.ts, ADR 24); the listing has it (section 2.1).
 */
export const MERCHANT_STATUSES = ['pending', 'processing', 'succeeded', 'failed', 'expired', 'cancelled'] as const
export type MerchantPaymentStatus = (typeof MERCHANT_STATUSES)[number]

/** The listing view's statuses. */
export const LISTING_STATUSES = ['requires_action', 'processing', 'succeeded', 'failed', 'expired', 'cancelled'] as const
export type ListingPaymentStatus = (typeof LISTING_STATUSES)[number]

/**
 * Where a payment in each status may go next: one way, and nowhere from a final status. The database's
 * trigger enforces the same table; every status change is a compare-and-set from these sources.
 */
export const TRANSITIONS = {
  pending: ['processing', 'failed', 'expired', 'cancelled'],
  processing: ['succeeded', 'failed'],
  succeeded: [],
  failed: [],
  expired: [],
  cancelled: [],
} as const satisfies Record<MerchantPaymentStatus, readonly MerchantPaymentStatus[]>

/** Statuses only the merchant moves a payment to, with the cancel operation: no buyer, rail or simulation does. */
export const MERCHANT_ONLY_STATUSES = ['cancelled'] as const satisfies readonly MerchantPaymentStatus[]

const NEXT: Readonly<Record<MerchantPaymentStatus, readonly MerchantPaymentStatus[]>> = TRANSITIONS

/** Final is decided here, one way: a status with nowhere to go. */
export type FinalStatus = { [S in MerchantPaymentStatus]: (typeof TRANSITIONS)[S] extends readonly [] ? S : never }[MerchantPaymentStatus]

export function isFinalStatus(status: MerchantPaymentStatus): status is FinalStatus {
  return NEXT[status].length === 0
}

// Pure: a bundle that does not use a derived list leaves it out.
export const FINAL_STATUSES = /* @__PURE__ */ MERCHANT_STATUSES.filter(isFinalStatus)

/** The statuses a payment can still leave. */
export const OPEN_STATUSES = /* @__PURE__ */ MERCHANT_STATUSES.filter((status) => !isFinalStatus(status))

export function canTransition(from: MerchantPaymentStatus, to: MerchantPaymentStatus): boolean {
  return NEXT[from].includes(to)
}

/**
 * How far along its lifecycle a payment in each status is. Of two observations of one payment, the one
 * further along is the newer, whatever order they arrived in; the final statuses share the last step, since
 * a payment reaches only one of them and never leaves it.
 */
export const STATUS_PROGRESS: Readonly<Record<MerchantPaymentStatus, number>> = {
  pending: 0,
  processing: 1,
  succeeded: 2,
  failed: 2,
  expired: 2,
  cancelled: 2,
}

/** The listing's name for a merchant-view status: `pending` is listed as `requires_action`. */
export function toListingStatus(status: MerchantPaymentStatus): ListingPaymentStatus {
  return status === 'pending' ? 'requires_action' : status
}

/** The stored status a listing status stands for. */
export function fromListingStatus(status: ListingPaymentStatus): MerchantPaymentStatus | undefined {
  return MERCHANT_STATUSES.find((merchant) => toListingStatus(merchant) === status)
}

/** The spec names terminal values only for the merchant view; in the listing they are the same payments'. */
export function isTerminalListingStatus(status: ListingPaymentStatus): boolean {
  const merchant = fromListingStatus(status)
  return merchant === undefined || isFinalStatus(merchant)
}

export const TERMINAL_LISTING_STATUSES = /* @__PURE__ */ LISTING_STATUSES.filter(isTerminalListingStatus)

/**
 * A refund's statuses, in lifecycle order:
 * - `awaiting_destination`: nobody has said where it goes yet; the buyer does, at `claimUrl`.
 * - `ready`: it has its destination; the merchant's wallet pays it, at `payUrl` or from any wallet.
 * - `submitted`: its transaction is known and followed to its confirmations.
 * - `succeeded`: confirmed on chain, or marked refunded by the merchant. Final.
 * - `failed`: its transaction reverted or vanished. Final; what it held may be refunded again.
 * - `cancelled`: the merchant called it off before it was submitted. Final; likewise.
 */
export const REFUND_STATUSES = ['awaiting_destination', 'ready', 'submitted', 'succeeded', 'failed', 'cancelled'] as const
export type RefundStatus = (typeof REFUND_STATUSES)[number]

/** Where a refund in each status may go next; the database's trigger enforces the same table. */
export const REFUND_TRANSITIONS = {
  // A refund paid outside Till and marked refunded skips the claim: with its transaction, or recorded alone.
  awaiting_destination: ['ready', 'submitted', 'succeeded', 'cancelled'],
  ready: ['submitted', 'succeeded', 'cancelled'],
  submitted: ['succeeded', 'failed'],
  succeeded: [],
  failed: [],
  cancelled: [],
} as const satisfies Record<RefundStatus, readonly RefundStatus[]>

/** How a refund's transaction can end, once submitted. */
export type RefundOutcome = (typeof REFUND_TRANSITIONS)['submitted'][number]

const REFUND_NEXT: Readonly<Record<RefundStatus, readonly RefundStatus[]>> = REFUND_TRANSITIONS

export const isFinalRefundStatus = (status: RefundStatus): boolean => REFUND_NEXT[status].length === 0
export const canRefundTransition = (from: RefundStatus, to: RefundStatus): boolean => REFUND_NEXT[from].includes(to)
/** The statuses a refund can be cancelled from: before its transaction is known. */
export const CANCELLABLE_REFUND_STATUSES = /* @__PURE__ */ REFUND_STATUSES.filter((status) => canRefundTransition(status, 'cancelled'))
/** A refund that still holds part of what was paid: the sum of these never exceeds it. */
export const HOLDING_REFUND_STATUSES = /* @__PURE__ */ REFUND_STATUSES.filter((status) => status !== 'failed' && status !== 'cancelled')
