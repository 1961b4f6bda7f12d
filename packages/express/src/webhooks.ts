// Till's signed event deliveries (Standard Webhooks): `POST /webhooks` of `payRouter` when it has a
// `webhookSecret`, or `POST /` of `webhookRouter` mounted on its own. A delivery is verified on its raw
// bytes, processed once per `webhook-id`, and a `payment.succeeded` takes the same path as the return page:
// the event body only says where to look, the status read from Till decides.
import { type PaymentWebhookEvent, WEBHOOK_EVENT_TYPES, WebhookEvent } from '@till/contract'
import express, { type Request, type RequestHandler, type Router } from 'express'
import { errorHandler, MerchantError } from './errors.ts'
import { checkPayment, StatusUnavailable } from './fulfil.ts'
import { type FulfilmentContext, settleFulfilment, type WebhookOptions, type WebhookRouterOptions } from './options.ts'
import type { PayableOrder } from './orders.ts'
import { type SignatureCheck, signatureCheck } from './signature.ts'
import { memoryWebhookIdStore, type WebhookIdStore } from './webhook-ids.ts'

// An event is one payment as the listing shows it, or one transfer and its payment: a few kilobytes. Anything
// far bigger is not Till's.
const BODY_LIMIT = '256kb'

/**
 * A `payment.succeeded` event that the shop cannot match to the order waiting for that payment, so nothing
 * was fulfilled. It goes to `onError` for a person to look at: money may have arrived for an order whose
 * payment id was never stored (`attachPayment` failed), or for a payment created outside this router.
 */
export class UnmatchedPaymentError extends Error {
  /** `order_not_found`: no order has the event's referenceId; `payment_mismatch`: the order waits for another payment. */
  readonly reason: 'order_not_found' | 'payment_mismatch'
  readonly paymentId: string
  readonly referenceId: string
  /** The payment the order is waiting for, when the order was found. */
  readonly orderPaymentId: string | undefined

  constructor(reason: UnmatchedPaymentError['reason'], paymentId: string, referenceId: string, orderPaymentId?: string) {
    super(
      reason === 'order_not_found'
        ? `Till reports payment ${paymentId} succeeded for referenceId ${referenceId}, but no order has that referenceId; nothing was fulfilled`
        : `Till reports payment ${paymentId} succeeded for referenceId ${referenceId}, but that order waits for payment ${orderPaymentId ?? '(none)'}; nothing was fulfilled`,
    )
    this.name = 'UnmatchedPaymentError'
    this.reason = reason
    this.paymentId = paymentId
    this.referenceId = referenceId
    this.orderPaymentId = orderPaymentId
  }
}

interface WebhookContext<O extends PayableOrder> {
  check: SignatureCheck
  ids: WebhookIdStore
  orderOfReference: (referenceId: string) => Promise<O | undefined>
  onEvent: WebhookOptions['onEvent']
}

export function settleWebhooks<O extends PayableOrder>(
  options: Partial<WebhookOptions>,
  context: FulfilmentContext<O>,
  who: string,
): WebhookContext<O> {
  const now = options.now ?? Date.now
  if (typeof now !== 'function') throw new TypeError(`${who}: now must be a function answering milliseconds since the epoch`)
  const { orderOfReference } = context
  if (orderOfReference === undefined) {
    throw new TypeError(
      `${who}: with a custom referenceId, orders.findByReferenceId(referenceId) is required: a webhook names its order by the payment's referenceId`,
    )
  }
  const ids = options.webhookIds ?? memoryWebhookIdStore({ now })
  if (typeof ids.seen !== 'function' || typeof ids.remember !== 'function') {
    throw new TypeError(`${who}: webhookIds must be a WebhookIdStore: seen(id) and remember(id) are required`)
  }
  return { check: signatureCheck(options.webhookSecret, now, who), ids, orderOfReference, onEvent: options.onEvent }
}

/**
 * The webhook route on its own, for a shop that mounts it apart from `payRouter`, e.g.
 * `app.use('/till/webhooks', webhookRouter({...}))`: it answers `POST /` of wherever it is mounted.
 */
export function webhookRouter<O extends PayableOrder>(options: WebhookRouterOptions<O>): Router {
  const context = settleFulfilment(options, 'webhookRouter')
  const router = express.Router()
  router.post('/', ...webhookHandlers(context, settleWebhooks(options, context, 'webhookRouter')))
  router.use(errorHandler(context.onError))
  return router
}

type Outcome = 'processed' | 'duplicate'

/** The route's middleware: its own raw-body reader, then the handler. Errors go to the router's error handler. */
export function webhookHandlers<O extends PayableOrder>(context: FulfilmentContext<O>, webhooks: WebhookContext<O>): RequestHandler[] {
  // Deliveries of one id being processed in this process: a redelivery that overtakes a slow first attempt
  // waits for it and shares its outcome, instead of processing the event a second time alongside.
  const inFlight = new Map<string, Promise<Outcome>>()

  const processEvent = async (id: string, event: WebhookEvent): Promise<Outcome> => {
    if (await webhooks.ids.seen(id)) return 'duplicate'
    if (event.type === 'payment.succeeded') await fulfilFromEvent(context, webhooks, event)
    await webhooks.onEvent?.(event)
    // Only now: a delivery that failed above is not remembered, so Till's retry is processed in full.
    await webhooks.ids.remember(id)
    return 'processed'
  }

  const deliver = async (id: string, event: WebhookEvent): Promise<Outcome> => {
    const running = inFlight.get(id)
    if (running !== undefined) {
      await running
      return 'duplicate'
    }
    const run = processEvent(id, event)
    inFlight.set(id, run)
    try {
      return await run
    } finally {
      inFlight.delete(id)
    }
  }

  return [
    // `type: () => true`: the signature covers the bytes whatever the content type says.
    express.raw({ type: () => true, limit: BODY_LIMIT }),
    async (request, response) => {
      const body = rawBodyOf(context, request)
      const id = webhooks.check(body, request.headers)
      const event = parseEvent(context, body)
      response.set('Cache-Control', 'no-store')
      // An event type newer than this package: acknowledged, so that Till does not retry it for a day and
      // then disable the endpoint, which would stop the payment.succeeded deliveries too.
      if (event === undefined) return response.status(200).json({ received: true, ignored: true })
      const outcome = await deliver(id, event)
      return response.status(200).json(outcome === 'duplicate' ? { received: true, duplicate: true } : { received: true })
    },
  ]
}

/**
 * The bytes Till signed. A body parser mounted before the router (an app-level `express.json()`) has
 * already consumed them and left an object: re-serialising it would not give the same bytes, so the
 * delivery is refused loudly rather than verified against something Till never sent.
 */
function rawBodyOf<O extends PayableOrder>(context: FulfilmentContext<O>, request: Request): Buffer {
  const body: unknown = request.body
  if (Buffer.isBuffer(body)) return body
  if (body === undefined) return Buffer.alloc(0)
  const message =
    'The webhook route received a body another middleware had already parsed, so its signature cannot be checked: ' +
    'mount the Till router before express.json() or any other body parser (or mount the parser only on your own routes).'
  context.onError(new Error(`@till/express: ${message}`))
  throw new MerchantError(500, 'internal_error', message)
}

/** The event, or undefined for an event type this package does not know yet or a shape it cannot read. */
function parseEvent<O extends PayableOrder>(context: FulfilmentContext<O>, body: Buffer): WebhookEvent | undefined {
  let json: unknown
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch {
    throw new MerchantError(400, 'invalid_request', 'The webhook body is not JSON.')
  }
  if (isNewEventType(json)) return undefined
  const parsed = WebhookEvent.safeParse(json)
  if (parsed.success) return parsed.data
  // Signed by Till yet unreadable: the package and Till disagree on the event's shape, which a person must
  // see (onError). It is acknowledged all the same: refusing it would have Till retry for a day and then
  // disable the endpoint, stopping every later delivery; the return page and reconcile() still fulfil.
  context.onError(new TypeError('@till/express: a signed webhook delivery is not a WebhookEvent', { cause: parsed.error }))
  return undefined
}

const KNOWN_TYPES: readonly string[] = WEBHOOK_EVENT_TYPES

function isNewEventType(json: unknown): boolean {
  if (typeof json !== 'object' || json === null || !('type' in json)) return false
  return typeof json.type === 'string' && !KNOWN_TYPES.includes(json.type)
}

/**
 * The return page's path, started from the event: the order the payment's referenceId names, if it waits
 * for this very payment, is fulfilled once when Till, asked here, says the payment succeeded.
 */
async function fulfilFromEvent<O extends PayableOrder>(
  context: FulfilmentContext<O>,
  webhooks: WebhookContext<O>,
  event: PaymentWebhookEvent,
): Promise<void> {
  const { paymentId, referenceId } = event.data
  const order = await webhooks.orderOfReference(referenceId)
  if (order === undefined) {
    context.onError(new UnmatchedPaymentError('order_not_found', paymentId, referenceId))
    return
  }
  if (order.paymentId !== paymentId) {
    context.onError(new UnmatchedPaymentError('payment_mismatch', paymentId, referenceId, order.paymentId))
    return
  }
  if (order.paid === true) return
  try {
    await checkPayment(context, order, paymentId, 'webhook')
  } catch (error) {
    if (!(error instanceof StatusUnavailable)) throw error
    context.onError(error.cause)
    // A 5xx makes Till deliver the event again later, when the status can be read.
    throw new MerchantError(
      502,
      'payment_service_error',
      'The payment service could not be reached to check this payment; deliver it again.',
    )
  }
}
