import { CreatePaymentRequest, routePath } from '@till/contract'
import type { FastifyInstance } from 'fastify'
import { parseOrThrow, paymentNotFound } from '../errors.ts'
import type { PaymentService } from './service.ts'
import { cancelPaymentResponse, createPaymentResponse, merchantStatusResponse } from './views.ts'
import type { Authenticator } from '../http/auth.ts'
import { principalOf, requireMerchant, versionOf } from '../http/context.ts'

export type MerchantPaymentDeps = {
  auth: Authenticator
  payments: PaymentService
  gatewayUrl: (paymentId: string) => string
  pollInMs: number
}

/** The merchant checkout API: spec sections 4.2 and 4.3, and cancelling a payment (issue 24). */
export function merchantPaymentRoutes(app: FastifyInstance, deps: MerchantPaymentDeps) {
  app.post(routePath('MerchantPayment_create'), async (request, reply) => {
    const merchantId = await requireMerchant(request, deps.auth)
    const body = parseOrThrow(CreatePaymentRequest, request.body, 'body')
    const { payment, replayed } = await deps.payments.create({
      partnerId: principalOf(request).partnerId,
      merchantId,
      request: body,
    })
    if (replayed) reply.header('Idempotent-Replayed', 'true')
    if (!payment.redirectEnabled) {
      request.log.info({ paymentId: payment.id }, 'redirect disabled: successUrl and errorUrl are not both valid HTTPS URLs')
    }
    return reply
      .code(replayed ? 200 : 201)
      .send(createPaymentResponse(payment, deps.gatewayUrl(payment.id), deps.pollInMs, versionOf(request)))
  })

  app.get<{ Params: { id: string } }>(routePath('MerchantPayment_status'), async (request) => {
    const merchantId = await requireMerchant(request, deps.auth)
    const { id } = request.params
    const payment = await deps.payments.statusForMerchant(id, merchantId, principalOf(request).partnerId)
    if (!payment) throw paymentNotFound(id)
    return merchantStatusResponse(payment, versionOf(request))
  })

  app.post<{ Params: { paymentId: string } }>(routePath('MerchantPayment_cancel'), async (request) => {
    const merchantId = await requireMerchant(request, deps.auth)
    const payment = await deps.payments.cancel(request.params.paymentId, merchantId, principalOf(request).partnerId)
    return cancelPaymentResponse(payment, versionOf(request))
  })
}
