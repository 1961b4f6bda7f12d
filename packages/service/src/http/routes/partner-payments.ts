import type { FastifyInstance } from 'fastify'
import { PAYMENT_ID_PATTERN } from '../../domain/ids.ts'
import type { PaymentService } from '../../payments/service.ts'
import { partnerStatusResponse } from '../../payments/views.ts'
import { principalOf } from '../context.ts'
import { paymentNotFound } from './merchant-payments.ts'

/** Partner-level reads (section 4.4), across every merchant of the partner. */
export function partnerPaymentRoutes(app: FastifyInstance, deps: { payments: PaymentService }) {
  app.get<{ Params: { paymentId: string } }>('/v1/payments/:paymentId/status', async (request) => {
    const { paymentId } = request.params
    const payment = PAYMENT_ID_PATTERN.test(paymentId)
      ? await deps.payments.statusForPartner(paymentId, principalOf(request).partnerId)
      : undefined
    if (!payment) throw paymentNotFound(paymentId)
    return partnerStatusResponse(payment)
  })
}
