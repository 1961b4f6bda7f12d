// The one thing the router needs from the merchant's own data: its orders. The amount of a payment always
// comes from here, never from the browser.

/** What the router reads of one of the merchant's orders. */
export interface PayableOrder {
  /** The merchant's order id; also the payment's `referenceId` unless `referenceId` is configured. */
  id: string
  /** The order's total from the merchant's records: an ISO 4217 code and an integer of minor units. */
  amount: { currency: string; value: bigint }
  /** The payment the router last created for the order (spec 4.7: the expected `payment_id`). */
  paymentId?: string | undefined
  /** True once `markPaid` has succeeded for the order. */
  paid?: boolean | undefined
}

/**
 * The merchant's order store, as the router uses it. Back it with the shop's database; `memoryOrderStore`
 * is a reference implementation for demos and tests.
 */
export interface OrderStore<O extends PayableOrder = PayableOrder> {
  find(orderId: string): Promise<O | undefined>
  /** Remembers `paymentId` as the order's payment, replacing one that failed or expired. */
  attachPayment(orderId: string, paymentId: string): Promise<void>
  /**
   * Marks the order paid by `paymentId`, and answers whether this call did it. It must be a compare-and-set
   * (in SQL: `UPDATE orders SET paid_at = now(), paid_by = $2 WHERE id = $1 AND paid_at IS NULL`), so that
   * of any number of concurrent calls exactly one answers true: that is what makes fulfilment happen once.
   */
  markPaid(orderId: string, paymentId: string): Promise<boolean>
}

/** An in-memory `OrderStore` over a Map the caller owns; each method is atomic because it never awaits. */
export function memoryOrderStore<O extends PayableOrder>(orders: Map<string, O>): OrderStore<O> {
  return {
    async find(orderId) {
      return orders.get(orderId)
    },
    async attachPayment(orderId, paymentId) {
      const order = orders.get(orderId)
      if (order === undefined) throw new Error(`no order ${orderId}`)
      order.paymentId = paymentId
    },
    async markPaid(orderId, paymentId) {
      const order = orders.get(orderId)
      if (order === undefined || order.paid === true) return false
      order.paid = true
      order.paymentId = paymentId
      return true
    },
  }
}
