// The demo's order book, in memory. It is the `OrderStore` the pay router reads, plus what the shop's pages
// show: items, the return-URL variant chosen at checkout, every payment attempt with the status the shop
// last read from Till, and every fulfilment (which must happen once) with what fulfilled it.
import type { Refund } from '@till/contract'
import { isFinalRefundStatus, type MerchantPaymentStatus, type RefundStatus, STATUS_PROGRESS } from '@till/contract/statuses'
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

/**
 * A refund of the order's payment, as the shop last read it from Till: its status, and its two links while
 * they work (the buyer's claim link, the shop's own pay link).
 */
export interface OrderRefund {
  refundId: string
  paymentId: string
  status: RefundStatus
  /** In the order's currency: the fiat amount refunded. */
  amount: { currency: string; value: bigint } | null
  /** What the shop's wallet sends: the payment's token, e.g. "13.5525 USDC". */
  tokens: string
  claimUrl: string | null
  payUrl: string | null
  createdAt: Date
  /** When the shop learned that status. */
  statusAt: Date
}

export interface DemoOrder extends PayableOrder {
  createdAt: Date
  lines: OrderLine[]
  returnMode: ReturnMode
  attempts: PaymentAttempt[]
  fulfilments: Fulfilment[]
  /** Oldest first. */
  refunds: OrderRefund[]
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
  /** Oldest first. */
  refunds: RefundView[]
}

export interface RefundView {
  refundId: string
  paymentId: string
  status: RefundStatus
  amount: MoneyView | null
  tokens: string
  claimUrl: string | null
  payUrl: string | null
  createdAt: string
  statusAt: string
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
  /**
   * Records a refund as read from Till, on the order whose payment it refunds: a new one is added; a known
   * one takes the read's status, links and all, when that status is further along (reads can arrive out of
   * order). Answers whether it changed anything; a refund of no order's payment changes nothing.
   */
  recordRefund(refund: Refund, at?: Date): boolean
}

/** How far along a refund is: a read never takes one back. The three final statuses are as far as it goes. */
const REFUND_PROGRESS: Record<RefundStatus, number> = {
  awaiting_destination: 0,
  ready: 1,
  submitted: 2,
  succeeded: 3,
  failed: 3,
  cancelled: 3,
}

/** The refund's fiat amount in the order's currency, from the contract's `iso4217/<CODE>` unit. */
function fiatOf(refund: Refund): OrderRefund['amount'] {
  const code = refund.amount?.unit.match(/^iso4217\/([A-Z]{3})$/)?.[1]
  return refund.amount && code ? { currency: code, value: BigInt(refund.amount.value) } : null
}

/** "13.5525 USDC": the token amount in whole units, exactly, with its symbol. */
export function formatTokens(amount: Refund['tokenAmount']): string {
  const decimals = amount.display?.decimals ?? 0
  const digits = amount.value.padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  const number = fraction ? `${whole}.${fraction}` : whole
  return amount.display ? `${number} ${amount.display.assetSymbol}` : `${number} (minor units of ${amount.unit})`
}

const refundOf = (refund: Refund, paymentId: string, at: Date): OrderRefund => ({
  refundId: refund.id,
  paymentId,
  status: refund.status,
  amount: fiatOf(refund),
  tokens: formatTokens(refund.tokenAmount),
  claimUrl: refund.claimUrl,
  payUrl: refund.payUrl,
  createdAt: new Date(refund.createdAt),
  statusAt: at,
})

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
        refunds: [],
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
    recordRefund(refund, at = new Date()) {
      const { paymentId } = refund
      if (paymentId === null) return false
      for (const order of orders.values()) {
        if (!order.attempts.some((attempt) => attempt.paymentId === paymentId)) continue
        const index = order.refunds.findIndex((known) => known.refundId === refund.id)
        const known = order.refunds[index]
        if (known === undefined) {
          order.refunds.push(refundOf(refund, paymentId, at))
          return true
        }
        if (REFUND_PROGRESS[refund.status] <= REFUND_PROGRESS[known.status]) return false
        order.refunds[index] = { ...refundOf(refund, paymentId, at), createdAt: known.createdAt }
        return true
      }
      return false
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
    refunds: order.refunds.map((refund) => ({
      refundId: refund.refundId,
      paymentId: refund.paymentId,
      status: refund.status,
      amount: refund.amount ? moneyView(refund.amount) : null,
      tokens: refund.tokens,
      // A final refund's links no longer work, whatever the last read said.
      claimUrl: isFinalRefundStatus(refund.status) ? null : refund.claimUrl,
      payUrl: isFinalRefundStatus(refund.status) ? null : refund.payUrl,
      createdAt: refund.createdAt.toISOString(),
      statusAt: refund.statusAt.toISOString(),
    })),
  }
}
