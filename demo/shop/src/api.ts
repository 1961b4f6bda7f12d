// The shop's calls to its own backend. Money arrives as integer minor units plus a display string made on
// the server; the pages never compute a price.
import type { MerchantPaymentStatus, RefundStatus } from '@till/contract/statuses'
import type { StatusSource } from '@till/express'

export interface Money {
  currency: string
  value: string
  formatted: string
}

export interface Product {
  id: string
  name: string
  description: string
  /** A drawing the shop serves, and what it shows in words. */
  image: { src: string; alt: string }
  price: Money
}

/** A priced cart or order line: the unit price, and unit price × quantity, both worked out by the server. */
export interface Line {
  productId: string
  name: string
  quantity: number
  unitPrice: Money
  lineTotal: Money
}

export interface Quote {
  lines: Line[]
  total: Money
}

/** A payment's status as the shop read it from Till: the contract's vocabulary, never a list of our own. */
export type AttemptStatus = MerchantPaymentStatus

/** What read the status that fulfilled an order (the pay router's `onPaid`). */
export type { StatusSource }

export type ReturnMode = 'https' | 'http' | 'malformed' | 'missing'

/** A refund's status as the shop read it from Till: the contract's vocabulary. */
export type { RefundStatus }

/** A refund of the order's payment, as the shop last read it from Till. */
export interface OrderRefund {
  refundId: string
  paymentId: string
  status: RefundStatus
  /** The fiat amount refunded; null for none (never, for an order's refund). */
  amount: Money | null
  /** What the shop's wallet sends, e.g. "13.5525 USDC". */
  tokens: string
  /** The buyer's page for saying where the refund goes, while it works. */
  claimUrl: string | null
  /** The shop's page for paying it from its wallet, while it works; not for the buyer. */
  payUrl: string | null
  createdAt: string
  statusAt: string
}

export interface Order {
  id: string
  createdAt: string
  lines: Line[]
  total: Money
  returnMode: ReturnMode
  paymentId: string | null
  paid: boolean
  /** Every payment of the order, oldest first, with the status the shop last read from Till. */
  attempts: { paymentId: string; startedAt: string; status: AttemptStatus; statusAt: string }[]
  fulfilments: { at: string; paymentId: string; by: StatusSource }[]
  /** Oldest first. */
  refunds: OrderRefund[]
}

async function json<T>(response: Response): Promise<T> {
  const body: unknown = await response.json().catch(() => undefined)
  if (!response.ok) {
    const message = typeof body === 'object' && body !== null && 'message' in body ? String(body.message) : `HTTP ${response.status}`
    throw new Error(message)
  }
  return body as T
}

export const products = async (): Promise<Product[]> => json(await fetch('/api/products'))
export const orders = async (): Promise<Order[]> => json(await fetch('/api/orders'))
export const order = async (id: string): Promise<Order> => json(await fetch(`/api/orders/${encodeURIComponent(id)}`))
/** The cart's line totals and total, priced by the server from product ids and quantities. */
export const quote = async (items: { productId: string; quantity: number }[]): Promise<Quote> =>
  json(
    await fetch('/api/quote', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items }),
    }),
  )
export const placeOrder = async (items: { productId: string; quantity: number }[], returnMode: ReturnMode): Promise<Order> =>
  json(
    await fetch('/api/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items, returnMode }),
    }),
  )
/** The shop calls off the order's open payment at Till (a demo's staff action: a real shop puts it behind sign-in). */
export const cancelPayment = async (orderId: string): Promise<Order> =>
  json(await fetch(`/api/orders/${encodeURIComponent(orderId)}/cancel-payment`, { method: 'POST' }))
/** The shop refunds the paid order in full at Till (a demo's staff action, likewise). */
export const refundOrder = async (orderId: string): Promise<Order> =>
  json(await fetch(`/api/orders/${encodeURIComponent(orderId)}/refund`, { method: 'POST' }))
