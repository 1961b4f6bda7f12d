// The one path from a payment to a fulfilled order, taken by the return page, the webhook route, the
// reconciler and a checkout that finds its order already paid. Only the status read here, server-side,
// counts as proof of payment; `markPaid` is the order store's compare-and-set, so however many of them
// race here, `onPaid` runs for exactly one.
import type { MerchantPaymentStatusResponse } from '@till/contract'
import type { FulfilmentContext, StatusSource } from './options.ts'
import type { PayableOrder } from './orders.ts'

/** Till could not tell the payment's status (unreachable, refused the key, no such payment): `cause` says why. */
export class StatusUnavailable extends Error {
  readonly paymentId: string
  constructor(paymentId: string, cause: unknown) {
    super(`The status of payment ${paymentId} could not be read from Till`, { cause })
    this.name = 'StatusUnavailable'
    this.paymentId = paymentId
  }
}

export interface CheckedPayment {
  status: MerchantPaymentStatusResponse
  /** True when this call marked the order paid (and ran `onPaid`). */
  fulfilled: boolean
}

/**
 * Reads the status of the order's payment `paymentId` from Till and, when it succeeded, fulfils the order
 * once. The caller has checked that `paymentId` is the order's payment. A failed read throws
 * `StatusUnavailable`, so that callers can tell it from a failing order store.
 */
export async function checkPayment<O extends PayableOrder>(
  context: FulfilmentContext<O>,
  order: O,
  paymentId: string,
  source: StatusSource,
): Promise<CheckedPayment> {
  let status: MerchantPaymentStatusResponse
  try {
    status = await context.till.merchantPayments.status(paymentId)
  } catch (error) {
    throw new StatusUnavailable(paymentId, error)
  }
  try {
    await context.onStatus(order, paymentId, status, source)
  } catch (error) {
    context.onError(error)
  }
  const fulfilled = status.status === 'succeeded' && (await fulfil(context, order, paymentId, source))
  return { status, fulfilled }
}

/** Marks the order paid by `paymentId` (whose status the caller read from Till) and fulfils it once. */
async function fulfil<O extends PayableOrder>(
  context: FulfilmentContext<O>,
  order: O,
  paymentId: string,
  source: StatusSource,
): Promise<boolean> {
  if (!(await context.orders.markPaid(order.id, paymentId))) return false
  try {
    await context.onPaid(order, paymentId, source)
  } catch (error) {
    // The order is paid either way; a fulfilment that failed is the merchant's to retry, not the buyer's.
    context.onError(error)
  }
  return true
}
