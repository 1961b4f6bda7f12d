// The return page's check (spec 4.7): the `payment_id` the buyer came back with must be the payment this
// order is waiting for, and only the status Till reports for it, read here on the server, counts.
import type { VerifyReply } from '@till/contract'
import { TillError } from '@till/client'
import { z } from 'zod'
import { MerchantError } from './errors.ts'
import { type CheckedPayment, checkPayment, StatusUnavailable } from './fulfil.ts'
import type { PayContext } from './options.ts'
import type { PayableOrder } from './orders.ts'

export const VerifyQuery = z.object({
  order: z.string({ error: 'is required: the order the buyer returned for' }).min(1).max(255),
  payment_id: z.string().max(255).optional(),
})
export type VerifyQuery = z.infer<typeof VerifyQuery>

export async function verifyReturn<O extends PayableOrder>(context: PayContext<O>, query: VerifyQuery): Promise<VerifyReply> {
  const order = await context.orders.find(query.order)
  if (order === undefined) throw new MerchantError(404, 'order_not_found', 'There is no such order.')
  const mismatch: VerifyReply = { status: 'mismatch', isFinal: true, pollInMs: context.pollInMs, orderId: order.id }
  // Compared with the id this server stored, never taken from the URL alone: a buyer who edits the
  // address, or returns with an older payment of the order, is not told that order's status.
  if (query.payment_id === undefined || query.payment_id !== order.paymentId) return mismatch

  const paymentId = query.payment_id
  let checked: CheckedPayment
  try {
    checked = await checkPayment(context, order, paymentId, 'return')
  } catch (error) {
    if (!(error instanceof StatusUnavailable)) throw error
    if (error.cause instanceof TillError && error.cause.status === 404) return mismatch
    context.onError(error.cause)
    throw new MerchantError(
      502,
      'payment_service_error',
      'The payment service could not be reached to check this payment; please try again.',
    )
  }
  const { status } = checked
  return { status: status.status, isFinal: status.isFinal, pollInMs: context.pollInMs, orderId: order.id, paymentId }
}
