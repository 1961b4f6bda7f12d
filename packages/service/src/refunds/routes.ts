import {
  CreateRefundRequest,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  MarkRefundedRequest,
  routePath,
  SimulateRefundRequest,
} from '@till/contract'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { ApiError, parseOrThrow } from '../errors.ts'
import type { Authenticator } from '../http/auth.ts'
import { header, principalOf, requireMerchant } from '../http/context.ts'
import { idempotencyKeyOf } from '../http/idempotency.ts'
import type { RefundRails } from './rail.ts'
import type { RefundService } from './service.ts'

const ListQuery = z.union([z.strictObject({ paymentId: z.string().min(1) }), z.strictObject({ unappliedTransferId: z.string().min(1) })], {
  error: 'name exactly one of paymentId and unappliedTransferId: whose refunds to list',
})

/** The refunds of the merchant API (issue 24): `Api-Key` + `Merchant-Id`, as the payments' operations. */
export function refundRoutes(
  app: FastifyInstance,
  deps: { auth: Authenticator; refunds: RefundService; refundRails: RefundRails; sandbox: boolean },
) {
  const caller = async (request: Parameters<typeof requireMerchant>[0]) => ({
    merchantId: await requireMerchant(request, deps.auth),
    partnerId: principalOf(request).partnerId,
  })

  app.post(routePath('Refunds_create'), async (request, reply) => {
    const { merchantId, partnerId } = await caller(request)
    const idempotencyKey = idempotencyKeyOf(header(request, IDEMPOTENCY_KEY_HEADER))
    const body = parseOrThrow(CreateRefundRequest, request.body, 'body')
    const answer = await deps.refunds.create({ partnerId, merchantId, request: body, idempotencyKey })
    if (answer.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true')
    return reply.code(answer.status).send(answer.body)
  })

  app.get(routePath('Refunds_list'), async (request) => {
    const { merchantId, partnerId } = await caller(request)
    const of = parseOrThrow(ListQuery, request.query, 'query')
    return { data: await deps.refunds.list(of, merchantId, partnerId) }
  })

  app.get<{ Params: { refundId: string } }>(routePath('Refunds_get'), async (request) => {
    const { merchantId, partnerId } = await caller(request)
    return deps.refunds.get(request.params.refundId, merchantId, partnerId)
  })

  app.post<{ Params: { refundId: string } }>(routePath('Refunds_markRefunded'), async (request) => {
    const { merchantId, partnerId } = await caller(request)
    const body = parseOrThrow(MarkRefundedRequest, request.body ?? {}, 'body')
    return deps.refunds.markRefunded(request.params.refundId, merchantId, partnerId, body.transactionHash)
  })

  app.post<{ Params: { refundId: string } }>(routePath('Refunds_cancel'), async (request) => {
    const { merchantId, partnerId } = await caller(request)
    return deps.refunds.cancel(request.params.refundId, merchantId, partnerId)
  })

  if (!deps.sandbox) return
  // Sandbox only: plays the merchant's wallet paying the refund (a test wallet, as on its pay page).
  app.post<{ Params: { refundId: string } }>(routePath('Sandbox_simulateRefund'), async (request) => {
    const { merchantId, partnerId } = await caller(request)
    if (!principalOf(request).sandbox) throw new ApiError('not_found', 'Sandbox calls are only for sandbox API keys.')
    const { outcome } = parseOrThrow(SimulateRefundRequest, request.body, 'body')
    const refund = await deps.refunds.own(request.params.refundId, merchantId, partnerId)
    const pay = deps.refundRails[refund.rail]?.pay
    if (!pay) {
      throw new ApiError('refund_not_payable', 'This refund is paid on a chain: send its transfer from the merchant’s wallet at payUrl.', {
        details: { status: refund.status },
      })
    }
    return deps.refunds.view(await pay(refund, outcome))
  })
}
