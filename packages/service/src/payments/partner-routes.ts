import { routePath } from '@till/contract'
import type { FastifyInstance } from 'fastify'
import type { PaymentService } from './service.ts'
import { partnerStatusResponse } from './views.ts'
import { principalOf } from '../http/context.ts'
import { paymentNotFound } from '../errors.ts'

/** Partner-level reads (section 4.4), across every merchant of the partner. */
export function partnerPaymentRoutes(app: FastifyInstance, deps: { payments: PaymentService }) {
  app.get<{ Params: { paymentId: string } }>(routePath('PartnerPayments_status'), async (request) => {
    const { paymentId } = request.params
    const payment = await deps.payments.statusForPartner(paymentId, principalOf(request).partnerId)
    if (!payment) throw paymentNotFound(paymentId)
    return partnerStatusResponse(payment)
  })
}
