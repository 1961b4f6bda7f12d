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
  /**
   * The order whose payments carry this `referenceId`. Needed only by the webhook route, and only with a
   * custom `referenceId` option: by default the referenceId is the order id and `find` is used.
   */
  findByReferenceId?(referenceId: string): Promise<O | undefined>
  /**
   * Up to `limit` orders that have a `paymentId` and are not paid, the most recently attached payment first.
   * Needed only by `reconciler`. Leaving out orders whose payment was attached longer ago than Till's
   * payment lifetime (15 minutes by default) plus a margin keeps abandoned checkouts from being read forever.
   */
  listAwaitingPayment?(limit: number): Promise<O[]>
}

export interface MemoryOrderStoreOptions<O extends PayableOrder> {
  /** The same mapping as the router's `referenceId` option, for `findByReferenceId`; the order id by default. */
  referenceId?: (order: O) => string
}

/** An in-memory `OrderStore` over a Map the caller owns; each method is atomic because it never awaits. */
export function memoryOrderStore<O extends PayableOrder>(
  orders: Map<string, O>,
  options: MemoryOrderStoreOptions<O> = {},
): Required<OrderStore<O>> {
  const referenceIdOf = options.referenceId
  // When each order's payment was attached, as a sequence number: listAwaitingPayment lists newest first.
  const attached = new Map<string, number>()
  let sequence = 0
  return {
    async find(orderId) {
      return orders.get(orderId)
    },
    async attachPayment(orderId, paymentId) {
      const order = orders.get(orderId)
      if (order === undefined) throw new Error(`no order ${orderId}`)
      order.paymentId = paymentId
      sequence += 1
      attached.set(orderId, sequence)
    },
    async markPaid(orderId, paymentId) {
      const order = orders.get(orderId)
      if (order === undefined || order.paid === true) return false
      order.paid = true
      order.paymentId = paymentId
      return true
    },
    async findByReferenceId(referenceId) {
      if (referenceIdOf === undefined) return orders.get(referenceId)
      for (const order of orders.values()) if (referenceIdOf(order) === referenceId) return order
      return undefined
    },
    async listAwaitingPayment(limit) {
      return [...orders.values()]
        .filter((order) => order.paymentId !== undefined && order.paid !== true)
        .sort((a, b) => (attached.get(b.id) ?? 0) - (attached.get(a.id) ?? 0))
        .slice(0, limit)
    },
  }
}
