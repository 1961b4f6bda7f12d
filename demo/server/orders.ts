// The demo's order book, in memory. It is the `OrderStore` the pay router reads, plus what the shop's pages
// show: items, the return-URL variant chosen at checkout, every payment attempt with the status the shop
// last read from Till, and every fulfilment (which must happen once) with what fulfilled it.
import { type MerchantPaymentStatus, STATUS_PROGRESS } from '@till/contract/statuses'
import { memoryOrderStore, type OrderStore, type PayableOrder, type StatusSource } from '@till/express'
import { randomBytes } from 'node:crypto'
import { moneyView, priceItems, type MoneyView, type PricedLine } from './catalog.ts'

export { UnknownProductError } from './catalog.ts'

/**
 * How the order's return URLs are given to Till. Only `https` enables the redirect; the others show the
 * checkout page's generic end views (spec 4.2).
 */
export const RETURN_MODES = ['https', 'http', 'malformed', 'missing'] as const
export type ReturnMode = (typeof RETURN_MODES)[number]

export type OrderLine = PricedLine

/**
 * One payment Till created for the order. A re-paid order keeps every attempt: a declined or expired one
 * stays listed beside the one that paid.
 */
export interface PaymentAttempt {
  paymentId: string
  startedAt: Date
  /** The status the shop last read from Till, server-side; `pending` from creation until then. */
  status: MerchantPaymentStatus
  /** When the shop learned that status. */
  statusAt: Date
}

export interface Fulfilment {
  at: Date
  paymentId: string
  /** What read the succeeded status that fulfilled the order: the return page's check, a webhook, … */
  by: StatusSource
}

export interface DemoOrder extends PayableOrder {
  createdAt: Date
  lines: OrderLine[]
  returnMode: ReturnMode
  attempts: PaymentAttempt[]
  fulfilments: Fulfilment[]
}

export interface OrderView {
  id: string
  createdAt: string
  lines: LineView[]
  total: MoneyView
  returnMode: ReturnMode
  paymentId: string | null
  paid: boolean
  /** Oldest first. */
  attempts: { paymentId: string; startedAt: string; status: MerchantPaymentStatus; statusAt: string }[]
  fulfilments: { at: string; paymentId: string; by: StatusSource }[]
}

/** A priced line as the pages show it. */
export interface LineView {
  productId: string
  name: string
  quantity: number
  unitPrice: MoneyView
  lineTotal: MoneyView
}

export const lineView = (line: PricedLine): LineView => ({
  productId: line.productId,
  name: line.name,
  quantity: line.quantity,
  unitPrice: moneyView(line.unitPrice),
  lineTotal: moneyView(line.lineTotal),
})

export interface OrderBook {
  store: OrderStore<DemoOrder>
  place(items: readonly { productId: string; quantity: number }[], returnMode: ReturnMode): DemoOrder
  get(orderId: string): DemoOrder | undefined
  /** Newest first. */
  list(): DemoOrder[]
  /**
   * Records a status of one of the order's payments, read from Till; one further along its lifecycle than
   * the last recorded wins (reads can arrive out of order). Answers whether it changed anything.
   */
  recordStatus(orderId: string, paymentId: string, status: MerchantPaymentStatus, at?: Date): boolean
  /** Records that the order was fulfilled by `paymentId` (the pay router's `onPaid`, which runs once). */
  fulfil(orderId: string, paymentId: string, by: StatusSource, at?: Date): void
}

export function orderBook(): OrderBook {
  const orders = new Map<string, DemoOrder>()
  const memory = memoryOrderStore(orders)
  return {
    store: {
      ...memory,
      // Every new payment of the order is an attempt; Till answering a second click with the same open
      // payment is not a new one.
      async attachPayment(orderId, paymentId) {
        await memory.attachPayment(orderId, paymentId)
        const order = orders.get(orderId)
        if (order === undefined || order.attempts.some((attempt) => attempt.paymentId === paymentId)) return
        const now = new Date()
        order.attempts.push({ paymentId, startedAt: now, status: 'pending', statusAt: now })
      },
    },
    place(items, returnMode) {
      const { lines, total } = priceItems(items)
      const order: DemoOrder = {
        id: `ord_${randomBytes(6).toString('hex')}`,
        createdAt: new Date(),
        lines,
        amount: total,
        returnMode,
        attempts: [],
        fulfilments: [],
      }
      orders.set(order.id, order)
      return order
    },
    get: (orderId) => orders.get(orderId),
    list: () => [...orders.values()].reverse(),
    recordStatus(orderId, paymentId, status, at = new Date()) {
      const attempt = orders.get(orderId)?.attempts.find((candidate) => candidate.paymentId === paymentId)
      if (attempt === undefined || STATUS_PROGRESS[status] <= STATUS_PROGRESS[attempt.status]) return false
      attempt.status = status
      attempt.statusAt = at
      return true
    },
    fulfil(orderId, paymentId, by, at = new Date()) {
      orders.get(orderId)?.fulfilments.push({ at, paymentId, by })
    },
  }
}

export function orderView(order: DemoOrder): OrderView {
  return {
    id: order.id,
    createdAt: order.createdAt.toISOString(),
    lines: order.lines.map(lineView),
    total: moneyView(order.amount),
    returnMode: order.returnMode,
    paymentId: order.paymentId ?? null,
    paid: order.paid === true,
    attempts: order.attempts.map((attempt) => ({
      paymentId: attempt.paymentId,
      startedAt: attempt.startedAt.toISOString(),
      status: attempt.status,
      statusAt: attempt.statusAt.toISOString(),
    })),
    fulfilments: order.fulfilments.map((f) => ({ at: f.at.toISOString(), paymentId: f.paymentId, by: f.by })),
  }
}
