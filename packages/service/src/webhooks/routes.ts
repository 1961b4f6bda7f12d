import { CreateWebhookEndpointRequest, routePath } from '@till/contract'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AuditAction, AuditLog } from '../audit/index.ts'
import type { Clock } from '../core/clock.ts'
import { parseOrThrow } from '../errors.ts'
import type { WebhookService } from './service.ts'
import type { Authenticator } from '../http/auth.ts'
import { principalOf, requireMerchant } from '../http/context.ts'

type EndpointRequest = FastifyRequest<{ Params: { endpointId: string } }>

/**
 * Webhook endpoints of the merchant named by Merchant-Id (Api-Key + Merchant-Id, as the merchant checkout
 * API): a documented extension of the spec, which leaves server-to-server notifications "not shown".
 */
export function webhookEndpointRoutes(
  app: FastifyInstance,
  deps: { auth: Authenticator; webhooks: WebhookService; audit: AuditLog; clock: Clock },
) {
  const merchantOf = (request: FastifyRequest) => requireMerchant(request, deps.auth)
  // Every change is in the partner's audit log, by the key that made it (issue 25, point 4).
  const audit = (request: FastifyRequest, merchantId: string, action: AuditAction, target: string) => {
    const { partnerId, keyId } = principalOf(request)
    return deps.audit.record({
      partnerId,
      userId: null,
      actor: `API key ${keyId}`,
      action,
      target,
      address: request.ip,
      details: { merchantId },
      at: deps.clock.now(),
    })
  }

  app.post(routePath('WebhookEndpoints_create'), async (request, reply) => {
    const merchantId = await merchantOf(request)
    const body = parseOrThrow(CreateWebhookEndpointRequest, request.body, 'body')
    const created = await deps.webhooks.create({ partnerId: principalOf(request).partnerId, merchantId, request: body })
    await audit(request, merchantId, 'webhook_endpoint_created', created.endpoint.id)
    return reply.code(201).send(created)
  })

  app.get(routePath('WebhookEndpoints_list'), async (request) => ({ data: await deps.webhooks.list(await merchantOf(request)) }))

  app.delete(routePath('WebhookEndpoints_delete'), async (request: EndpointRequest, reply) => {
    const merchantId = await merchantOf(request)
    await deps.webhooks.remove(merchantId, request.params.endpointId)
    await audit(request, merchantId, 'webhook_endpoint_deleted', request.params.endpointId)
    return reply.code(204).send()
  })

  app.post(routePath('WebhookEndpoints_rotateSecret'), async (request: EndpointRequest) => {
    const merchantId = await merchantOf(request)
    const rotated = await deps.webhooks.rotate(merchantId, request.params.endpointId)
    await audit(request, merchantId, 'webhook_secret_rotated', request.params.endpointId)
    return rotated
  })

  app.post(routePath('WebhookEndpoints_enable'), async (request: EndpointRequest) => {
    const merchantId = await merchantOf(request)
    const endpoint = await deps.webhooks.enable(merchantId, request.params.endpointId)
    await audit(request, merchantId, 'webhook_endpoint_enabled', request.params.endpointId)
    return { endpoint }
  })

  app.get(routePath('WebhookEndpoints_deliveries'), async (request: EndpointRequest) => ({
    data: await deps.webhooks.deliveries(await merchantOf(request), request.params.endpointId),
  }))

  app.post(
    routePath('WebhookEndpoints_redeliver'),
    async (request: FastifyRequest<{ Params: { endpointId: string; deliveryId: string } }>, reply) => {
      const merchantId = await merchantOf(request)
      await deps.webhooks.redeliver(merchantId, request.params.endpointId, request.params.deliveryId)
      await audit(request, merchantId, 'webhook_redelivered', request.params.deliveryId)
      return reply.code(202).send({ queued: true })
    },
  )
}
