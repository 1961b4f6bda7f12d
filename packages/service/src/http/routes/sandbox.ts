import { SimulatePaymentRequest } from '@till/contract'
import type { FastifyInstance } from 'fastify'
import { ApiError, parseOrThrow, paymentNotFound } from '../../errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { PaymentService } from '../../payments/service.ts'
import { listingPayment } from '../../payments/views.ts'
import { simulateOutcome } from '../../sandbox/simulate.ts'
import type { AccountStore } from '../../store/accounts.ts'
import type { Authenticator } from '../auth.ts'
import { principalOf, requireMerchant } from '../context.ts'

/** Registered only in sandbox mode: outside it the route does not exist. */
export function sandboxRoutes(
  app: FastifyInstance,
  deps: { auth: Authenticator; payments: PaymentService; accounts: AccountStore; clock: Clock },
) {
  app.post<{ Params: { paymentId: string } }>('/v1/sandbox/payments/:paymentId/simulate', async (request) => {
    const merchantId = await requireMerchant(request, deps.auth)
    const principal = principalOf(request)
    if (!principal.sandbox) {
      throw new ApiError('not_found', 'Simulation is only for sandbox API keys.')
    }
    const { paymentId } = request.params
    const payment = await deps.payments.readForMerchant(paymentId, merchantId, principal.partnerId)
    if (!payment) throw paymentNotFound(paymentId)
    const { outcome } = parseOrThrow(SimulatePaymentRequest, request.body, 'body')
    const moved = await simulateOutcome(deps, payment, outcome)
    const merchant = await deps.accounts.findMerchant(merchantId)
    if (!merchant) throw new ApiError('merchant_not_found', `No merchant ${merchantId}.`)
    return listingPayment(moved, merchant)
  })
}
