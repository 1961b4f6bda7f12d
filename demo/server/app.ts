// The demo shop's backend: the built storefront, a small orders API, and the pay router of @till/express
// mounted at /pay. The Till API key is in `deps.till` and in nothing this app sends to a browser.
import { TillClient, TillConflictError } from '@till/client'
import { isPaymentEvent, REFUND_EVENT_TYPES, type RefundWebhookEvent, toErrorIssues, type WebhookEvent } from '@till/contract'
import { isFinalRefundStatus, isFinalStatus } from '@till/contract/statuses'
import { cancelOrderPayment, type PayRouterOptions, payRouter } from '@till/express'
import express, { type Express, type NextFunction, type Request, type Response } from 'express'
import { z } from 'zod'
import { LOGO_PATH } from './brand.ts'
import { moneyView, priceItems, PRODUCTS } from './catalog.ts'
import {
  lineView,
  orderBook,
  orderView,
  RETURN_MODES,
  UnknownProductError,
  type DemoOrder,
  type OrderBook,
  type ReturnMode,
} from './orders.ts'
import { localChainPages } from './tagline.ts'

export interface DemoDeps {
  till: { baseUrl: string; apiKey: string; merchantId: string }
  /** The shop's own origin, e.g. https://127.0.0.1:5443: its return page is `<origin>/return.html`. */
  shopOrigin: string
  /** The built storefront (demo/dist). */
  shopDir: string
  /** What buyers pay with: the sandbox's test wallets (the default), or a local chain (tagline.ts). */
  chain?: 'sandbox' | 'local'
  /** The shop's logo (PNG), served at LOGO_PATH: Till imported it when the shop registered. */
  logo?: Buffer
  /** The signing secret of the shop's webhook endpoint at Till: the pay router then takes POST /pay/webhooks. */
  webhookSecret?: string
  book?: OrderBook
  log?: (message: string, error?: unknown) => void
}

/** What the browser sends: product ids and quantities, never a price. */
const Items = z.object({
  items: z
    .array(z.object({ productId: z.string().min(1).max(64), quantity: z.int().min(1).max(99) }))
    .min(1, { error: 'the cart is empty' })
    .max(20),
})

const PlaceOrder = Items.extend({
  returnMode: z.enum(RETURN_MODES).default('https'),
})

/** The return URLs each demo switch position gives Till; only `https` keeps the redirect on. */
function checkoutFor(mode: ReturnMode, url: string): { successUrl?: string; errorUrl?: string } {
  switch (mode) {
    case 'https':
      return { successUrl: url, errorUrl: url }
    case 'http':
      return { successUrl: url.replace(/^https:/, 'http:'), errorUrl: url.replace(/^https:/, 'http:') }
    case 'malformed':
      return { successUrl: url.replace(/^https:\/\//, 'https://exa mple/'), errorUrl: url }
    case 'missing':
      return { successUrl: url }
  }
}

export function createDemoApp(deps: DemoDeps): Express {
  const book = deps.book ?? orderBook()
  const log = deps.log ?? ((message, error) => console.error(message, error ?? ''))
  const app = express()
  app.disable('x-powered-by')
  app.use(securityHeaders)

  const { logo } = deps
  if (logo) {
    app.get(LOGO_PATH, (_request, response) => {
      response.type('image/png').set('Cache-Control', 'public, max-age=3600').send(logo)
    })
  }
  app.get('/healthz', (_request, response) => {
    response.json({ ok: true })
  })
  app.get('/api/products', (_request, response) => {
    response.json(PRODUCTS.map((product) => ({ ...product, price: moneyView(product.price) })))
  })
  // The cart's prices: each line's total and the cart's total, from the catalogue, in integer minor units.
  app.post('/api/quote', express.json({ limit: '8kb' }), (request, response) => {
    const parsed = Items.safeParse(request.body)
    if (!parsed.success) {
      response.status(400).json({ code: 'invalid_request', message: 'The cart is not valid.', issues: toErrorIssues(parsed.error) })
      return
    }
    try {
      const { lines, total } = priceItems(parsed.data.items)
      response.set('Cache-Control', 'no-store').json({ lines: lines.map(lineView), total: moneyView(total) })
    } catch (error) {
      if (!(error instanceof UnknownProductError)) throw error
      response.status(400).json({ code: 'invalid_request', message: error.message })
    }
  })
  app.post('/api/orders', express.json({ limit: '8kb' }), (request, response) => {
    const parsed = PlaceOrder.safeParse(request.body)
    if (!parsed.success) {
      response.status(400).json({ code: 'invalid_request', message: 'The order is not valid.', issues: toErrorIssues(parsed.error) })
      return
    }
    try {
      response.status(201).json(orderView(book.place(parsed.data.items, parsed.data.returnMode)))
    } catch (error) {
      if (!(error instanceof UnknownProductError)) throw error
      response.status(400).json({ code: 'invalid_request', message: error.message })
    }
  })
  // One client for the pay router and the shop's own status reads, on the version whose merchant view names
  // `cancelled` (on 2026-02-18 a cancelled payment reads `failed`).
  const till = new TillClient({ ...deps.till, payVersion: '2026-02-19.preview' })
  // Till sends no event when a buyer claims a refund or a wallet sends it: an order's open refunds are read
  // again when the Orders page asks. Till unreachable, the page shows what the shop knew.
  const withFreshRefunds = async (order: DemoOrder) => {
    const open = order.refunds.filter((refund) => !isFinalRefundStatus(refund.status))
    await Promise.all(open.map(async (refund) => book.recordRefund(await till.refunds.get(refund.refundId)))).catch((error: unknown) =>
      log('[demo] reading refunds failed', error),
    )
    return orderView(order)
  }
  app.get('/api/orders', async (_request, response, next) => {
    try {
      response.set('Cache-Control', 'no-store').json(await Promise.all(book.list().map(withFreshRefunds)))
    } catch (error) {
      next(error)
    }
  })
  app.get('/api/orders/:id', async (request, response, next) => {
    try {
      const order = book.get(request.params.id)
      if (order === undefined) response.status(404).json({ code: 'order_not_found', message: 'There is no such order.' })
      else response.set('Cache-Control', 'no-store').json(await withFreshRefunds(order))
    } catch (error) {
      next(error)
    }
  })

  const payOptions: PayRouterOptions<DemoOrder> = {
    till,
    orders: book.store,
    returnUrl: `${deps.shopOrigin}/return.html`,
    checkout: (order, url) => checkoutFor(order.returnMode, url),
    // Each status the router reads from Till (the return page's check, a webhook) is the attempt's status.
    onStatus: (order, paymentId, status) => {
      book.recordStatus(order.id, paymentId, status.status)
    },
    onPaid: (order, paymentId, source) => {
      // A real shop would ship the order here; the demo keeps a log the orders page shows.
      book.fulfil(order.id, paymentId, source)
    },
    onError: (error) => log('[demo] payment error', error),
    // Till tells the shop of payments itself, so orders are paid even when the buyer never comes back.
    ...(deps.webhookSecret
      ? { webhookSecret: deps.webhookSecret, onEvent: (event: WebhookEvent) => learnFromEvent(till, book, event) }
      : {}),
  }
  app.use('/pay', payRouter(payOptions))
  // The shop calls off an order's open payment (the Orders page's "Cancel payment"): what the order became.
  app.post('/api/orders/:id/cancel-payment', async (request, response, next) => {
    try {
      const order = book.get(request.params.id)
      if (order === undefined) {
        response.status(404).json({ code: 'order_not_found', message: 'There is no such order.' })
        return
      }
      await cancelOrderPayment(payOptions, order.id)
      response.set('Cache-Control', 'no-store').json(orderView(order))
    } catch (error) {
      next(error)
    }
  })

  // Staff refund a paid order in full (the Orders page's "Refund this order"): Till makes the refund, whose
  // claim link goes to the buyer and whose pay link is for the shop's own wallet. What the order became.
  app.post('/api/orders/:id/refund', async (request, response, next) => {
    try {
      const order = book.get(request.params.id)
      if (order === undefined) {
        response.status(404).json({ code: 'order_not_found', message: 'There is no such order.' })
        return
      }
      const paymentId = order.paid === true ? order.paymentId : undefined
      if (paymentId === undefined) {
        response.status(409).json({ code: 'order_not_paid', message: 'Only a paid order can be refunded.' })
        return
      }
      // A repeated press (or a refund made elsewhere) leaves nothing to refund: Till says so, and so does the shop.
      const refund = await till.refunds.create({ paymentId, reason: 'Refunded from the demo shop' }).catch((error: unknown) => {
        if (error instanceof TillConflictError) return error
        throw error
      })
      if (refund instanceof TillConflictError) {
        response.status(409).json({ code: refund.code, message: refund.message })
        return
      }
      book.recordRefund(refund)
      response.set('Cache-Control', 'no-store').json(orderView(order))
    } catch (error) {
      next(error)
    }
  })

  if (deps.chain === 'local') app.use(localChainPages(deps.shopDir))
  app.use(express.static(deps.shopDir, { extensions: ['html'], index: 'index.html' }))
  app.use((error: unknown, _request: Request, response: Response, _next: NextFunction) => {
    log('[demo] unexpected error', error)
    response.status(500).json({ code: 'internal_error', message: 'Something went wrong in the demo shop.' })
  })
  return app
}

const isRefundEvent = (event: WebhookEvent): event is RefundWebhookEvent => (REFUND_EVENT_TYPES as readonly string[]).includes(event.type)

/**
 * A webhook about any attempt of an order (an earlier one too, or one whose buyer never came back): the
 * event only says which payment to look at; its status is read from Till. A read that fails throws, so
 * the delivery is answered 500 and Till delivers it again.
 */
async function learnFromEvent(till: TillClient, book: OrderBook, event: WebhookEvent): Promise<void> {
  if (isRefundEvent(event)) {
    // Only a refund of one of the shop's orders; what it became is read from Till, as a payment's status is.
    const { id, paymentId } = event.data
    if (paymentId === null || !book.list().some((order) => order.attempts.some((attempt) => attempt.paymentId === paymentId))) return
    book.recordRefund(await till.refunds.get(id))
    return
  }
  // A transfer that paid nothing is the shop owner's business; the demo's orders learn nothing from it.
  if (!isPaymentEvent(event)) return
  const { paymentId, referenceId } = event.data
  const attempt = book.get(referenceId)?.attempts.find((candidate) => candidate.paymentId === paymentId)
  // Unknown, or already final (the router read a succeeded payment's status itself, just before).
  if (attempt === undefined || isFinalStatus(attempt.status)) return
  const { status } = await till.merchantPayments.status(paymentId)
  book.recordStatus(referenceId, paymentId, status)
}

// The storefront's pages load only their own scripts and styles; the shop talks to its own backend only.
function securityHeaders(_request: Request, response: Response, next: NextFunction): void {
  response.set({
    'Content-Security-Policy':
      "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self' http: https:",
    'Referrer-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
  })
  next()
}
