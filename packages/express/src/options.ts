// The router's configuration, checked once when the router is built: a mistake stops the merchant's server
// at start-up with a message that says how to fix it, not at a buyer's first click.
import { TillClient } from '@till/client'
import type { ApiVersion } from '@till/contract'
import type { Request } from 'express'
import type { OrderStore, PayableOrder } from './orders.ts'

/** What Till is told about the return pages: spec 4.2's `checkout` object. */
export interface CheckoutUrls {
  successUrl?: string
  errorUrl?: string
}

export interface PayRouterOptions<O extends PayableOrder = PayableOrder> {
  /**
   * Till's address and the merchant's credentials, or a `TillClient` built from them. The API key lives
   * here, on the server, and in nothing the router sends to a browser.
   */
  till: TillClient | { baseUrl: string; apiKey: string; merchantId: string; payVersion?: ApiVersion }
  orders: OrderStore<O>
  /**
   * Absolute HTTPS address of the shop's return page (the one with `<pay-return>`). The router adds
   * `order=<order id>`, and Till adds `payment_id` when it sends the buyer back.
   */
  returnUrl: string | ((order: O, request: Request) => string)
  /**
   * The return URLs given to Till for an order; by default both are the order's return URL. Till disables
   * the redirect unless both are valid HTTPS URLs.
   */
  checkout?: (order: O, returnUrl: string, request: Request) => CheckoutUrls | undefined
  /** The payment's `referenceId` for an order; the order id by default. */
  referenceId?: (order: O) => string
  /**
   * Fulfils the order. Runs once per order, after `orders.markPaid` answered true; if it throws, the order
   * stays marked paid and the error goes to `onError` (make it retryable on your side, e.g. a job queue).
   */
  onPaid?: (order: O, paymentId: string) => void | Promise<void>
  /** Where unexpected errors go (Till unreachable, a bug). `console.error` by default. */
  onError?: (error: unknown) => void
}

/** The router's settled configuration, shared by its routes. */
export interface PayContext<O extends PayableOrder> {
  till: TillClient
  orders: OrderStore<O>
  returnUrlOf: (order: O, request: Request) => string
  checkoutOf: (order: O, returnUrl: string, request: Request) => CheckoutUrls | undefined
  referenceIdOf: (order: O) => string
  onPaid: (order: O, paymentId: string) => void | Promise<void>
  onError: (error: unknown) => void
  /** Till's suggested polling interval, as it said last time (the same for every payment in practice). */
  pollInMs: number
}

const DEFAULT_POLL_IN_MS = 2_000

/**
 * The client checks its own settings (address, key, version) and says what is wrong; the router adds only
 * what it needs beyond them: a merchant, since it creates payments.
 */
function clientOf(till: PayRouterOptions['till']): TillClient {
  if (till instanceof TillClient) return till
  if (typeof till?.merchantId !== 'string' || till.merchantId === '') {
    throw new TypeError('payRouter: till.merchantId is required: the Merchant-Id the API key belongs to')
  }
  try {
    return new TillClient(till)
  } catch (error) {
    throw new TypeError(`payRouter: the \`till\` option is not valid: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    })
  }
}

const absoluteUrl = (value: string, name: string): string => {
  try {
    return new URL(value).href
  } catch {
    throw new TypeError(`payRouter: ${name} must be an absolute URL, e.g. https://shop.example/return; got ${JSON.stringify(value)}`)
  }
}

export function settle<O extends PayableOrder>(options: PayRouterOptions<O>): PayContext<O> {
  const till = clientOf(options.till)
  if (typeof options.returnUrl === 'string') absoluteUrl(options.returnUrl, 'returnUrl')
  const returnUrl = options.returnUrl
  const returnUrlOf =
    typeof returnUrl === 'string'
      ? (order: O) => withOrder(returnUrl, order.id)
      : (order: O, request: Request) => withOrder(absoluteUrl(returnUrl(order, request), 'returnUrl(order)'), order.id)
  return {
    till,
    orders: options.orders,
    returnUrlOf,
    checkoutOf: options.checkout ?? ((_order, url) => ({ successUrl: url, errorUrl: url })),
    referenceIdOf: options.referenceId ?? ((order) => order.id),
    onPaid: options.onPaid ?? (() => {}),
    onError: options.onError ?? ((error) => console.error('[@till/express]', error)),
    pollInMs: DEFAULT_POLL_IN_MS,
  }
}

function withOrder(returnUrl: string, orderId: string): string {
  const url = new URL(returnUrl)
  url.searchParams.set('order', orderId)
  return url.href
}
