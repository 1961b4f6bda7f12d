// The one place an order becomes paid. `markPaid` is the order store's compare-and-set, so however many
// return-page loads, polls and retries race here, `onPaid` runs for exactly one of them.
import type { PayContext } from './options.ts'
import type { PayableOrder } from './orders.ts'

/** Marks the order paid by `paymentId` (whose status the caller read from Till) and fulfils it once. */
export async function fulfil<O extends PayableOrder>(context: PayContext<O>, order: O, paymentId: string): Promise<void> {
  if (!(await context.orders.markPaid(order.id, paymentId))) return
  try {
    await context.onPaid(order, paymentId)
  } catch (error) {
    // The order is paid either way; a fulfilment that failed is the merchant's to retry, not the buyer's.
    context.onError(error)
  }
}
