import {
  CHECKOUT_TOKEN_HEADER,
  CheckoutConfirmRequest,
  CheckoutStatusQuery,
  DevWalletRequest,
  fiatAmount,
  type PaymentOption,
} from '@till/contract'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sessionFor, type CheckoutDeps } from './context.ts'
import { formatRate } from './page/format.ts'
import { en, serverPages } from './page/strings.ts'
import { checkoutStatus } from './views.ts'
import { ApiError, fieldError, parseOrThrow, paymentNotFound } from '../errors.ts'
import { header } from '../http/context.ts'
import { enforceRateLimit } from '../http/rate-limit.ts'

type PaymentRequest = FastifyRequest<{ Params: { paymentId: string } }>

/**
 * The gateway API: the checkout page's only way in, scoped to one payment by its path and by the checkout
 * token the page was served with. It needs no API key and returns nothing the buyer should not see.
 */
export function checkoutApiRoutes(app: FastifyInstance, deps: CheckoutDeps) {
  const base = '/checkout/api/payments/:paymentId'

  // Token first, so nothing about a payment (not even whether it exists) reaches a caller without one.
  // As onRequest hooks they run before a body is read: a caller without the token cannot make Till wait for one.
  const guard = async (request: PaymentRequest, reply: FastifyReply) => {
    const { paymentId } = request.params
    if (!deps.tokens.verify(paymentId, header(request, CHECKOUT_TOKEN_HEADER))) {
      throw new ApiError(
        'checkout_token_invalid',
        'This request does not carry the checkout token of this payment; reload the checkout page.',
      )
    }
    enforceRateLimit(deps.limits.perPayment, paymentId, reply, 'for this payment')
  }
  // Actions change a payment; a page needs a handful, a script hammering them far more.
  const guardAction = async (request: PaymentRequest, reply: FastifyReply) => {
    await guard(request, reply)
    enforceRateLimit(deps.limits.actionsPerPayment, request.params.paymentId, reply, 'to change this payment')
  }

  async function load(paymentId: string) {
    const payment = await deps.payments.readForCheckout(paymentId)
    if (!payment) throw paymentNotFound(paymentId)
    return payment
  }

  /** The display data the page is served with, for a page (or app) that needs it again. */
  app.get<{ Params: { paymentId: string } }>(base, { onRequest: guard }, async (request) => {
    const payment = await load(request.params.paymentId)
    const session = await sessionFor(deps, payment)
    if (!session) throw paymentNotFound(payment.id)
    return session
  })

  app.get<{ Params: { paymentId: string } }>(`${base}/options`, { onRequest: guard }, async (request) => {
    const payment = await load(request.params.paymentId)
    const rail = await deps.rails.of(payment)
    if (!rail) return { options: [] }
    // Every option shows the rate its amount works out to, worked out here the same way whatever the rail.
    const amount = fiatAmount(payment.currency, payment.amountMinor)
    const rated = (option: PaymentOption): PaymentOption => {
      if (amount.value === '0') return option
      const rate = formatRate(amount, option.tokenAmount, en.locale)
      return { ...option, rate: rail.fixedSandboxRates ? serverPages.sandboxRate(rate) : rate }
    }
    return { options: (await rail.options(payment)).map(rated) }
  })

  app.post<{ Params: { paymentId: string } }>(`${base}/confirm`, { onRequest: guardAction }, async (request) => {
    const body = parseOrThrow(CheckoutConfirmRequest, request.body, 'body')
    const payment = await load(request.params.paymentId)
    const rail = await deps.rails.of(payment)
    if (!rail) throw fieldError('walletId', 'no such wallet for this payment')
    return checkoutStatus(await rail.submit(payment, body), deps.clock.now())
  })

  /** The Local dev wallet's EIP-1193 requests, on a local development chain only. */
  app.post<{ Params: { paymentId: string } }>(`${base}/dev-wallet`, { onRequest: guardAction }, async (request) => {
    const body = parseOrThrow(DevWalletRequest, request.body, 'body')
    const payment = await load(request.params.paymentId)
    const answer = (await deps.rails.of(payment))?.devWallet
    if (!answer) throw new ApiError('not_found', 'This payment has no Local dev wallet.')
    return { result: await answer(payment, body) }
  })

  app.post<{ Params: { paymentId: string } }>(`${base}/expire`, { onRequest: guardAction }, async (request) => {
    const payment = await load(request.params.paymentId)
    if (!(await deps.rails.of(payment))?.sandbox) throw new ApiError('not_found', 'Expiring on demand is a sandbox tool.')
    const moved = await deps.payments.transition({ payment, to: 'expired', reason: 'sandbox_expire_now' })
    return checkoutStatus(moved, deps.clock.now())
  })

  /**
   * Long-poll: with `after`, the answer waits until the payment is no longer in that status, up to `waitMs`
   * (and never past its deadline, so an expiry shows at once). Changes wake it through `deps.events`.
   */
  app.get<{ Params: { paymentId: string } }>(`${base}/status`, { onRequest: guard }, async (request, reply) => {
    const { paymentId } = request.params
    const { after, waitMs = 0 } = parseOrThrow(CheckoutStatusQuery, request.query, 'query')
    const gone = new AbortController()
    reply.raw.once('close', () => gone.abort())
    const deadline = Date.now() + (after ? waitMs : 0)
    for (;;) {
      const current = await deps.payments.statusForCheckout(paymentId)
      if (!current) throw paymentNotFound(paymentId)
      const left = deadline - Date.now()
      if (current.status !== after || left <= 0 || gone.signal.aborted || deps.closing()) break
      const untilDeadline = current.status === 'pending' ? current.expiresAt - deps.clock.now().getTime() : left
      await deps.events.next(paymentId, Math.min(left, Math.max(untilDeadline, 0) + 10), gone.signal)
    }
    return checkoutStatus(await load(paymentId), deps.clock.now())
  })
}
