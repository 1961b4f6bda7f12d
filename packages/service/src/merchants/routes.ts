import {
  CreateMerchantRequest,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  MerchantId,
  routePath,
  type RawQuery,
  type UnappliedTransferList,
  UpdateMerchantRequest,
} from '@till/contract'
import type { FastifyInstance } from 'fastify'
import { ApiError, parseOrThrow } from '../errors.ts'
import type { MerchantService } from './service.ts'
import { header, principalOf } from '../http/context.ts'
import { idempotencyKeyOf } from '../http/idempotency.ts'

// An id that cannot exist is as unknown as one that does not: 404 either way, without a query.
function knownShape(merchantId: string): string {
  if (!MerchantId.safeParse(merchantId).success) throw new ApiError('merchant_not_found', `No merchant ${merchantId} for this API key.`)
  return merchantId
}

/**
 * Merchants over the API: spec 4.5 and 4.6, and the unapplied transfers they refund (an extension). The key may
 * also come as `Authorization: Bearer` (spec 5, rule 3), as the operations table allows these operations.
 */
export function merchantRoutes(
  app: FastifyInstance,
  deps: { merchants: MerchantService; unappliedTransfers: (merchantId: string, query: RawQuery) => Promise<UnappliedTransferList> },
) {
  app.post(routePath('Merchants_create'), async (request, reply) => {
    const key = idempotencyKeyOf(header(request, IDEMPOTENCY_KEY_HEADER))
    const body = parseOrThrow(CreateMerchantRequest, request.body, 'body')
    const { merchant, replayed } = await deps.merchants.create({
      partnerId: principalOf(request).partnerId,
      request: body,
      idempotencyKey: key,
    })
    if (replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true')
    return reply.code(201).send({ merchant })
  })

  app.patch<{ Params: { merchantId: string } }>(routePath('Merchants_update'), async (request) => {
    const body = parseOrThrow(UpdateMerchantRequest, request.body, 'body')
    const merchantId = knownShape(request.params.merchantId)
    const merchant = await deps.merchants.update({ partnerId: principalOf(request).partnerId, merchantId, request: body })
    return { merchant }
  })

  app.get<{ Params: { merchantId: string }; Querystring: RawQuery }>(routePath('Merchants_unappliedTransfers'), async (request) => {
    const merchantId = knownShape(request.params.merchantId)
    await deps.merchants.ownedBy(principalOf(request).partnerId, merchantId)
    return deps.unappliedTransfers(merchantId, request.query)
  })
}
