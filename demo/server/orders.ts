// The demo's order book, in memory. It is the `OrderStore` the pay router reads, plus what the shop's pages
// show: items, the return-URL variant chosen at checkout, and every fulfilment (which must happen once).
import { memoryOrderStore, type OrderStore, type PayableOrder } from '@till/express'
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

export interface DemoOrder extends PayableOrder {
  createdAt: Date
  lines: OrderLine[]
  returnMode: ReturnMode
  fulfilments: { at: Date; paymentId: string }[]
}

export interface OrderView {
  id: string
  createdAt: string
  lines: LineView[]
  total: MoneyView
  returnMode: ReturnMode
  paymentId: string | null
  paid: boolean
  fulfilments: { at: string; paymentId: string }[]
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
}

export function orderBook(): OrderBook {
  const orders = new Map<string, DemoOrder>()
  return {
    store: memoryOrderStore(orders),
    place(items, returnMode) {
      const { lines, total } = priceItems(items)
      const order: DemoOrder = {
        id: `ord_${randomBytes(6).toString('hex')}`,
        createdAt: new Date(),
        lines,
        amount: total,
        returnMode,
        fulfilments: [],
      }
      orders.set(order.id, order)
      return order
    },
    get: (orderId) => orders.get(orderId),
    list: () => [...orders.values()].reverse(),
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
    fulfilments: order.fulfilments.map((f) => ({ at: f.at.toISOString(), paymentId: f.paymentId })),
  }
}
