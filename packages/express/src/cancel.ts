// Cancelling an order's open payment, for a shop whose customer changed their mind (issue 24): the shop's
// backend calls it (an admin page, a "cancel order" action), never a buyer's browser on its own say.
import { TillConflictError } from '@till/client'
import type { MerchantPaymentStatus } from '@till/contract'
import { checkPayment } from './fulfil.ts'
import { type FulfilmentContext, type FulfilmentOptions, settleFulfilment } from './options.ts'
import type { PayableOrder } from './orders.ts'

/**
 * What became of the order's payment:
 * - `cancelled`: Till cancelled it (or had already); its checkout page says so and sends the buyer to `errorUrl`.
 * - `not_cancellable`: it had moved on, to `status`. A payment that succeeded meanwhile has fulfilled the
 *   order, as any read of a succeeded status does: refund it if the order is to be called off.
 * - `no_payment`: the order has no payment, or is paid already.
 */
export type CancelledOrderPayment =
  | { outcome: 'cancelled'; paymentId: string }
  | { outcome: 'not_cancellable'; paymentId: string; status: MerchantPaymentStatus }
  | { outcome: 'no_payment' }

/**
 * Cancels the open payment of one of the shop's orders (`POST /v1/merchant/payment/{paymentId}/cancel`).
 * Takes the options of `payRouter` or `webhookRouter` (only `till`, `orders` and the callbacks are read);
 * throws a `TillError` when Till cannot be reached or refuses the credentials, and `TypeError` on options
 * that could never work.
 *
 * ```ts
 * app.post('/admin/orders/:id/cancel-payment', requireStaff, async (req, res) => {
 *   res.json(await cancelOrderPayment(payOptions, req.params.id))
 * })
 * ```
 */
export async function cancelOrderPayment<O extends PayableOrder>(
  options: FulfilmentOptions<O>,
  orderId: string,
): Promise<CancelledOrderPayment> {
  const context = settleFulfilment(options, 'cancelOrderPayment')
  const order = await context.orders.find(orderId)
  const paymentId = order?.paymentId
  if (order === undefined || paymentId === undefined || order.paid === true) return { outcome: 'no_payment' }
  try {
    const cancelled = await context.till.merchantPayments.cancel(paymentId)
    await told(context, order, paymentId, cancelled)
    return { outcome: 'cancelled', paymentId }
  } catch (error) {
    if (!(error instanceof TillConflictError) || error.code !== 'payment_not_cancellable') throw error
  }
  // It moved on before the cancel: read it as any status is read, which fulfils the order if it succeeded.
  const { status } = await checkPayment(context, order, paymentId, 'cancel')
  return { outcome: 'not_cancellable', paymentId, status: status.status }
}

async function told<O extends PayableOrder>(
  context: FulfilmentContext<O>,
  order: O,
  paymentId: string,
  status: { status: MerchantPaymentStatus; isFinal: boolean },
): Promise<void> {
  try {
    await context.onStatus(order, paymentId, { status: status.status, isFinal: status.isFinal }, 'cancel')
  } catch (error) {
    context.onError(error)
  }
}
