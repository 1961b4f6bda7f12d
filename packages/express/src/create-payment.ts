// Creating the payment for one of the merchant's orders: the amount comes from the order store, the
// referenceId ties the payment to the order, and the order remembers the payment's id for the return check.
import { type CreatedPayment, TillError } from '@till/client'
import type { Request } from 'express'
import { MerchantError } from './errors.ts'
import { checkPayment, StatusUnavailable } from './fulfil.ts'
import type { PayContext } from './options.ts'
import type { PayableOrder } from './orders.ts'

export interface StartedPayment {
  paymentId: string
  gatewayUrl: string
  /** True when Till returned the order's open payment again rather than a new one. */
  replayed: boolean
}

export async function createPaymentForOrder<O extends PayableOrder>(
  context: PayContext<O>,
  orderId: string,
  request: Request,
): Promise<StartedPayment> {
  const order = await context.orders.find(orderId)
  if (order === undefined) throw new MerchantError(404, 'order_not_found', 'There is no such order.')
  if (order.paid === true) throw alreadyPaid()
  if (order.amount.value <= 0n) throw new MerchantError(400, 'invalid_request', 'This order has nothing to pay.')

  const returnUrl = context.returnUrlOf(order, request)
  const checkout = context.checkoutOf(order, returnUrl, request)
  let created: CreatedPayment
  try {
    created = await context.till.merchantPayments.create({
      amount: { unit: `iso4217/${order.amount.currency}`, value: order.amount.value.toString() },
      referenceId: context.referenceIdOf(order),
      ...(checkout === undefined ? {} : { checkout }),
    })
  } catch (error) {
    throw await explain(context, order, error)
  }
  context.pollInMs = created.pollInMs
  await context.orders.attachPayment(order.id, created.paymentId)
  return { paymentId: created.paymentId, gatewayUrl: created.gatewayUrl, replayed: created.replayed }
}

const alreadyPaid = () => new MerchantError(409, 'order_already_paid', 'This order is already paid.')

/** Turns Till's refusal into what the buyer's browser may learn; the details go to `onError`. */
async function explain<O extends PayableOrder>(context: PayContext<O>, order: O, error: unknown): Promise<MerchantError> {
  if (!(error instanceof TillError)) return internal(context, error)
  if (error.code === 'reference_already_paid') {
    // An earlier payment of this order succeeded but its buyer never came back through the return page:
    // fulfil it now, after reading its status, rather than asking the buyer to pay twice.
    const paymentId = error.details?.paymentId
    if (typeof paymentId === 'string') {
      try {
        await checkPayment(context, order, paymentId, 'checkout')
      } catch (failure) {
        if (failure instanceof StatusUnavailable) return internal(context, failure.cause)
        throw failure
      }
    }
    return alreadyPaid()
  }
  if (error.code === 'reference_in_use') {
    return new MerchantError(
      409,
      'order_changed',
      'This order changed while a payment for it was open; wait for that payment to end, then try again.',
    )
  }
  return internal(context, error)
}

function internal<O extends PayableOrder>(context: PayContext<O>, error: unknown): MerchantError {
  context.onError(error)
  return new MerchantError(502, 'payment_service_error', 'The payment service could not start this payment; please try again in a moment.')
}
