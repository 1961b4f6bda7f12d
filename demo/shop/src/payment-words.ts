// How the shop words a payment's status and what fulfilled an order. Keyed by the contract's own types: a
// status the contract adds later does not compile until it has its words here.
import type { AttemptStatus, Order, RefundStatus, StatusSource } from './api.ts'

/** An attempt's status, as the Orders page lists it. */
export const STATUS_LABEL: Record<AttemptStatus, string> = {
  pending: 'Pending',
  processing: 'Processing',
  succeeded: 'Paid',
  failed: 'Failed',
  expired: 'Expired',
  cancelled: 'Cancelled',
}

/** What Till says of the payment, as the return page words it: "this payment …". */
export const TILL_SAYS: Record<AttemptStatus, string> = {
  pending: 'is waiting to be paid',
  processing: 'is being confirmed on the network',
  succeeded: 'is paid',
  failed: 'failed',
  expired: 'expired',
  cancelled: 'was cancelled by the shop',
}

/** The order as a whole, from its latest attempt. */
const ORDER_STATE: Record<AttemptStatus, string> = {
  pending: 'Awaiting payment',
  processing: 'Payment processing',
  succeeded: 'Paid',
  failed: 'Payment failed',
  expired: 'Payment expired',
  cancelled: 'Payment cancelled',
}

export function orderState(order: Order): string {
  if (order.paid) return ORDER_STATE.succeeded
  const latest = order.attempts.at(-1)
  return latest === undefined ? 'Not paid yet' : ORDER_STATE[latest.status]
}

/** A refund's status, as the Orders page lists it. */
export const REFUND_STATUS_LABEL: Record<RefundStatus, string> = {
  awaiting_destination: 'Waiting for the buyer’s address',
  ready: 'Ready to send',
  submitted: 'Sent, confirming',
  succeeded: 'Refunded',
  failed: 'Failed',
  cancelled: 'Cancelled',
}

/** What read the succeeded status that fulfilled the order. */
export const SOURCE_LABEL: Record<StatusSource, string> = {
  return: 'the return page',
  webhook: 'Till’s webhook',
  checkout: 'a new checkout, which found it paid',
  reconcile: 'the reconciler',
  cancel: 'the shop, cancelling its payment',
}

/** Dates and times in the shop's locale, in the browser's time zone. */
export const dateTime = new Intl.DateTimeFormat('en-IE', { dateStyle: 'medium', timeStyle: 'short' })
export const timeOfDay = new Intl.DateTimeFormat('en-IE', { timeStyle: 'medium' })
