// The demo's order book, in memory. It is the `OrderStore` the pay router reads, plus what the shop's pages
// show: items, the return-URL variant chosen at checkout, and every fulfilment (which must happen once).
import { memoryOrderStore, type OrderStore, type PayableOrder } from '@till/express'
import { randomBytes } from 'node:crypto'
import { moneyView, productById, type MoneyView } from './catalog.ts'

/**
 * How the order's return URLs are given to Till. Only `https` enables the redirect; the others show the
 * checkout page's generic end views (spec 4.2).
 */
export const RETURN_MODES = ['https', 'http', 'malformed', 'missing'] as const
export type ReturnMode = (typeof RETURN_MODES)[number]

export interface OrderLine {
  productId: string
  name: string
  quantity: number
  unitPrice: { currency: string; value: bigint }
}

export interface DemoOrder extends PayableOrder {
  createdAt: Date
  lines: OrderLine[]
  returnMode: ReturnMode
  fulfilments: { at: Date; paymentId: string }[]
}

export interface OrderView {
  id: string
  createdAt: string
  lines: { productId: string; name: string; quantity: number; unitPrice: MoneyView }[]
  total: MoneyView
  returnMode: ReturnMode
  paymentId: string | null
  paid: boolean
  fulfilments: { at: string; paymentId: string }[]
}

export class UnknownProductError extends Error {}

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
      const lines = items.map(({ productId, quantity }): OrderLine => {
        const product = productById(productId)
        if (product === undefined) throw new UnknownProductError(`no product ${productId}`)
        return { productId, name: product.name, quantity, unitPrice: product.price }
      })
      const value = lines.reduce((sum, line) => sum + line.unitPrice.value * BigInt(line.quantity), 0n)
      const order: DemoOrder = {
        id: `ord_${randomBytes(6).toString('hex')}`,
        createdAt: new Date(),
        lines,
        amount: { currency: 'EUR', value },
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
    lines: order.lines.map((line) => ({
      productId: line.productId,
      name: line.name,
      quantity: line.quantity,
      unitPrice: moneyView(line.unitPrice),
    })),
    total: moneyView(order.amount),
    returnMode: order.returnMode,
    paymentId: order.paymentId ?? null,
    paid: order.paid === true,
    fulfilments: order.fulfilments.map((f) => ({ at: f.at.toISOString(), paymentId: f.paymentId })),
  }
}
