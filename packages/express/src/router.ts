// The Express router a merchant backend mounts, e.g. `app.use('/pay', payRouter({...}))`:
//   POST /checkout  creates (or returns again) the payment of one of the shop's orders;
//   GET  /verify    checks the buyer's return and reports the order's payment status;
//   POST /webhooks  with a `webhookSecret`: Till's signed event deliveries (see webhooks.ts).
// The wire format is the merchant protocol of `@till/contract`, which <pay-button> and <pay-return> speak.
import { toErrorIssues } from '@till/contract'
import type { CreatePaymentReply } from '@till/contract'
import express, { type Request, type Router } from 'express'
import { z } from 'zod'
import { createPaymentForOrder } from './create-payment.ts'
import { errorHandler, MerchantError, wantsHtml } from './errors.ts'
import { settle, type PayRouterOptions } from './options.ts'
import type { PayableOrder } from './orders.ts'
import { verifyReturn, VerifyQuery } from './verify-return.ts'
import { settleWebhooks, webhookHandlers } from './webhooks.ts'

const CheckoutBody = z.object({
  orderId: z.string({ error: 'is required: the id of the order to pay' }).min(1, { error: 'must not be empty' }).max(255),
})

// An order id and little else: anything bigger is not a checkout request.
const BODY_LIMIT = '4kb'

export function payRouter<O extends PayableOrder>(options: PayRouterOptions<O>): Router {
  const context = settle(options)
  const router = express.Router()

  router.post(
    '/checkout',
    express.json({ limit: BODY_LIMIT }),
    express.urlencoded({ extended: false, limit: BODY_LIMIT }),
    async (request, response) => {
      const { orderId } = parse(CheckoutBody, bodyOf(request), 'body')
      const payment = await createPaymentForOrder(context, orderId, request)
      response.set('Cache-Control', 'no-store')
      // The no-JavaScript fallback form: send the buyer straight on, as the element would.
      if (wantsHtml(request)) return response.redirect(303, payment.gatewayUrl)
      const reply: CreatePaymentReply = { paymentId: payment.paymentId, gatewayUrl: payment.gatewayUrl }
      return response.status(payment.replayed ? 200 : 201).json(reply)
    },
  )

  router.get('/verify', async (request, response) => {
    const reply = await verifyReturn(context, parse(VerifyQuery, request.query, 'query'))
    response.set('Cache-Control', 'no-store').json(reply)
  })

  // The same handlers as webhookRouter's, on the same context: one fulfilment path whichever comes first.
  if (options.webhookSecret !== undefined)
    router.post('/webhooks', ...webhookHandlers(context, settleWebhooks(options, context, 'payRouter')))

  router.use(errorHandler(context.onError))
  return router
}

function bodyOf(request: Request): unknown {
  const json = request.is('application/json') === 'application/json'
  if (!json && !wantsHtml(request)) {
    throw new MerchantError(415, 'invalid_request', 'Send the order as application/json or as a form (application/x-www-form-urlencoded).')
  }
  return request.body
}

function parse<T>(schema: z.ZodType<T>, input: unknown, root: string): T {
  const result = schema.safeParse(input ?? {})
  if (result.success) return result.data
  throw new MerchantError(400, 'invalid_request', 'The request is not valid; see issues.', toErrorIssues(result.error, root))
}
