// The router's configuration, checked once when the router is built: a mistake stops the merchant's server
// at start-up with a message that says how to fix it, not at a buyer's first click.
import { TillClient } from '@till/client'
import type { ApiVersion, MerchantPaymentStatusResponse, WebhookEvent } from '@till/contract'
import type { Request } from 'express'
import type { OrderStore, PayableOrder } from './orders.ts'
import type { WebhookIdStore } from './webhook-ids.ts'

/** What Till is told about the return pages: spec 4.2's `checkout` object. */
export interface CheckoutUrls {
  successUrl?: string
  errorUrl?: string
}

/** Till's address and the merchant's credentials. */
export interface TillSettings {
  baseUrl: string
  apiKey: string
  merchantId: string
  payVersion?: ApiVersion
}

/**
 * What read a payment's status from Till: the return page's check (`GET /verify`), a webhook delivery, a
 * checkout that found its order already paid, the reconciler, or `cancelOrderPayment`.
 */
export type StatusSource = 'return' | 'webhook' | 'checkout' | 'reconcile' | 'cancel'

/**
 * What everything that fulfils orders needs: the pay router's return page, its webhook route and the
 * reconciler share these options, and with them the one path from a succeeded payment to `onPaid`.
 */
export interface FulfilmentOptions<O extends PayableOrder = PayableOrder> {
  /**
   * Till's address and the merchant's credentials, or a `TillClient` built from them. The API key lives
   * here, on the server, and in nothing the router sends to a browser.
   */
  till: TillClient | TillSettings
  orders: OrderStore<O>
  /** The payment's `referenceId` for an order; the order id by default. */
  referenceId?: (order: O) => string
  /**
   * Fulfils the order. Runs once per order, after `orders.markPaid` answered true; if it throws, the order
   * stays marked paid and the error goes to `onError` (make it retryable on your side, e.g. a job queue).
   * `source` says what read the succeeded status that fulfilled it.
   */
  onPaid?: (order: O, paymentId: string, source: StatusSource) => void | Promise<void>
  /**
   * Called each time the status of the order's payment `paymentId` is read from Till (the only proof of a
   * payment's status), before `onPaid` when it succeeded; `source` says what read it. For showing a
   * payment's progress: if it throws, the error goes to `onError` and nothing else changes.
   */
  onStatus?: (order: O, paymentId: string, status: MerchantPaymentStatusResponse, source: StatusSource) => void | Promise<void>
  /** Where unexpected errors go (Till unreachable, a bug). `console.error` by default. */
  onError?: (error: unknown) => void
}

/** The webhook route's own options (Standard Webhooks deliveries from Till). */
export interface WebhookOptions {
  /**
   * The endpoint's signing secret (`whsec_…`), as `POST /v1/webhook-endpoints` showed it once; during a
   * rotation, both the new and the old one.
   */
  webhookSecret: string | readonly string[]
  /**
   * Remembers the `webhook-id` of each delivery processed, so that a redelivery runs nothing again. An
   * in-memory store (48 h, 100 000 ids) by default: enough for one process; back it with your database
   * when the shop runs on several.
   */
  webhookIds?: WebhookIdStore
  /**
   * Called once per new, verified event of any type, after the router's own work (fulfilling the order on
   * `payment.succeeded`). Tell events apart by `type`: `payment.<status>` carries the payment,
   * `transfer.unapplied` a transfer that paid nothing, for you to refund to `data.from`, with the payment it
   * matched or null; `refund.<created|succeeded|failed|cancelled>` a refund. If it throws, the delivery is answered 500 and Till delivers it again.
   */
  onEvent?: (event: WebhookEvent) => void | Promise<void>
  /** The clock, in milliseconds since the epoch, for the 5-minute timestamp tolerance; `Date.now` by default. */
  now?: () => number
}

export interface PayRouterOptions<O extends PayableOrder = PayableOrder> extends FulfilmentOptions<O>, Partial<WebhookOptions> {
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
}

export interface WebhookRouterOptions<O extends PayableOrder = PayableOrder> extends FulfilmentOptions<O>, WebhookOptions {}

/** The settled configuration of everything that fulfils orders. */
export interface FulfilmentContext<O extends PayableOrder> {
  till: TillClient
  orders: OrderStore<O>
  referenceIdOf: (order: O) => string
  /** The order a payment's referenceId names; undefined when the store cannot tell (checked where needed). */
  orderOfReference: ((referenceId: string) => Promise<O | undefined>) | undefined
  onPaid: (order: O, paymentId: string, source: StatusSource) => void | Promise<void>
  onStatus: (order: O, paymentId: string, status: MerchantPaymentStatusResponse, source: StatusSource) => void | Promise<void>
  onError: (error: unknown) => void
}

/** The router's settled configuration, shared by its routes. */
export interface PayContext<O extends PayableOrder> extends FulfilmentContext<O> {
  returnUrlOf: (order: O, request: Request) => string
  checkoutOf: (order: O, returnUrl: string, request: Request) => CheckoutUrls | undefined
  /** Till's suggested polling interval, as it said last time (the same for every payment in practice). */
  pollInMs: number
}

const DEFAULT_POLL_IN_MS = 2_000

/**
 * The client checks its own settings (address, key, version) and says what is wrong; the router adds only
 * what it needs beyond them: a merchant, since it creates payments and reads their merchant-view status.
 */
function clientOf(till: FulfilmentOptions['till'], who: string): TillClient {
  if (till instanceof TillClient) return till
  if (typeof till?.merchantId !== 'string' || till.merchantId === '') {
    throw new TypeError(`${who}: till.merchantId is required: the Merchant-Id the API key belongs to`)
  }
  try {
    return new TillClient(till)
  } catch (error) {
    throw new TypeError(`${who}: the \`till\` option is not valid: ${error instanceof Error ? error.message : String(error)}`, {
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

/** `who` names the function the merchant called, so that a configuration error points at their code. */
export function settleFulfilment<O extends PayableOrder>(options: FulfilmentOptions<O>, who: string): FulfilmentContext<O> {
  const till = clientOf(options.till, who)
  const { orders } = options
  if (typeof orders?.find !== 'function' || typeof orders.attachPayment !== 'function' || typeof orders.markPaid !== 'function') {
    throw new TypeError(`${who}: orders must be an OrderStore: find, attachPayment and markPaid are required`)
  }
  let orderOfReference: FulfilmentContext<O>['orderOfReference']
  // By default the referenceId is the order id, so `find` is the lookup; a custom mapping needs the store's.
  if (options.referenceId === undefined) orderOfReference = (referenceId) => orders.find(referenceId)
  else if (typeof orders.findByReferenceId === 'function') {
    const findByReferenceId = orders.findByReferenceId
    orderOfReference = (referenceId) => findByReferenceId.call(orders, referenceId)
  }
  return {
    till,
    orders,
    referenceIdOf: options.referenceId ?? ((order) => order.id),
    orderOfReference,
    onPaid: options.onPaid ?? (() => {}),
    onStatus: options.onStatus ?? (() => {}),
    onError: options.onError ?? ((error) => console.error('[@till/express]', error)),
  }
}

export function settle<O extends PayableOrder>(options: PayRouterOptions<O>): PayContext<O> {
  const fulfilment = settleFulfilment(options, 'payRouter')
  if (typeof options.returnUrl === 'string') absoluteUrl(options.returnUrl, 'returnUrl')
  const returnUrl = options.returnUrl
  const returnUrlOf =
    typeof returnUrl === 'string'
      ? (order: O) => withOrder(returnUrl, order.id)
      : (order: O, request: Request) => withOrder(absoluteUrl(returnUrl(order, request), 'returnUrl(order)'), order.id)
  return {
    ...fulfilment,
    returnUrlOf,
    checkoutOf: options.checkout ?? ((_order, url) => ({ successUrl: url, errorUrl: url })),
    pollInMs: DEFAULT_POLL_IN_MS,
  }
}

function withOrder(returnUrl: string, orderId: string): string {
  const url = new URL(returnUrl)
  url.searchParams.set('order', orderId)
  return url.href
}
