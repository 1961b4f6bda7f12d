import { routePath, SimulatePaymentRequest } from '@till/contract'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError, fieldError, parseOrThrow, paymentNotFound } from '../errors.ts'
import type { Clock } from '../core/clock.ts'
import type { PaymentRecord, PaymentService } from '../payments/index.ts'
import { listingPayment } from '../payments/index.ts'
import { deliverConfirmation } from './confirmations.ts'
import { simulateOutcome } from './simulate.ts'
import type { LogoUrl } from '../logos/index.ts'
import type { AccountStore } from '../accounts/index.ts'
import type { Authenticator } from '../http/auth.ts'
import { principalOf, requireMerchant } from '../http/context.ts'

type PaymentRequest = FastifyRequest<{ Params: { paymentId: string } }>

/** Registered only in sandbox mode: outside it the routes do not exist. */
export function sandboxRoutes(
  app: FastifyInstance,
  deps: { auth: Authenticator; payments: PaymentService; accounts: AccountStore; clock: Clock; logoUrl: LogoUrl },
) {
  /** The merchant's payment the request names, for a sandbox key only; another's is never revealed. */
  async function sandboxPayment(request: PaymentRequest): Promise<PaymentRecord> {
    const merchantId = await requireMerchant(request, deps.auth)
    const principal = principalOf(request)
    if (!principal.sandbox) {
      throw new ApiError('not_found', 'Sandbox calls are only for sandbox API keys.')
    }
    const { paymentId } = request.params
    const payment = await deps.payments.readForMerchant(paymentId, merchantId, principal.partnerId)
    if (!payment) throw paymentNotFound(paymentId)
    return payment
  }

  async function view(payment: PaymentRecord) {
    const merchant = await deps.accounts.findMerchant(payment.merchantId)
    if (!merchant) throw new ApiError('merchant_not_found', `No merchant ${payment.merchantId}.`)
    return listingPayment(payment, { id: merchant.id, name: merchant.name, iconUrl: deps.logoUrl(merchant.logo) })
  }

  app.post<{ Params: { paymentId: string } }>(routePath('Sandbox_simulate'), async (request) => {
    const payment = await sandboxPayment(request)
    const { outcome, wallet } = parseOrThrow(SimulatePaymentRequest, request.body, 'body')
    if (wallet && (await deps.accounts.findApp(wallet.appId))?.partnerId !== payment.partnerId) {
      throw fieldError('wallet.appId', 'is not a wallet app of this partner; create one with till app create')
    }
    return view(await simulateOutcome(deps, payment, outcome, wallet))
  })

  // The network confirms now: the slow test wallet's confirmation, due later or held, is delivered at once.
  app.post<{ Params: { paymentId: string } }>(routePath('Sandbox_confirm'), async (request) => {
    const payment = await sandboxPayment(request)
    const confirmed = await deliverConfirmation(deps, payment.id)
    if (!confirmed) {
      const status = (await deps.payments.readForCheckout(payment.id))?.status ?? payment.status
      throw new ApiError(
        'invalid_transition',
        `Payment ${payment.id} is ${status} with no confirmation to come; only the slow test wallet's payments wait for one.`,
        {
          details: { status },
        },
      )
    }
    return view(confirmed)
  })

  app.post<{ Params: { paymentId: string } }>(routePath('Sandbox_reachDeadline'), async (request) => {
    return view(await deps.payments.reachDeadline(await sandboxPayment(request)))
  })
}
