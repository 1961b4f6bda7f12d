import { CreateWebhookEndpointRequest, routePath } from '@till/contract'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { parseOrThrow } from '../errors.ts'
import type { WebhookService } from './service.ts'
import type { Authenticator } from '../http/auth.ts'
import { principalOf, requireMerchant } from '../http/context.ts'

type EndpointRequest = FastifyRequest<{ Params: { endpointId: string } }>

/**
 * Webhook endpoints of the merchant named by Merchant-Id (Api-Key + Merchant-Id, as the merchant checkout
 * API): a documented extension of the spec, which leaves server-to-server notifications "not shown".
 */
export function webhookEndpointRoutes(app: FastifyInstance, deps: { auth: Authenticator; webhooks: WebhookService }) {
  const merchantOf = (request: FastifyRequest) => requireMerchant(request, deps.auth)

  app.post(routePath('WebhookEndpoints_create'), async (request, reply) => {
    const merchantId = await merchantOf(request)
    const body = parseOrThrow(CreateWebhookEndpointRequest, request.body, 'body')
    const created = await deps.webhooks.create({ partnerId: principalOf(request).partnerId, merchantId, request: body })
    return reply.code(201).send(created)
  })

  app.get(routePath('WebhookEndpoints_list'), async (request) => ({ data: await deps.webhooks.list(await merchantOf(request)) }))

  app.delete(routePath('WebhookEndpoints_delete'), async (request: EndpointRequest, reply) => {
    await deps.webhooks.remove(await merchantOf(request), request.params.endpointId)
    return reply.code(204).send()
  })

  app.post(routePath('WebhookEndpoints_rotateSecret'), async (request: EndpointRequest) =>
    deps.webhooks.rotate(await merchantOf(request), request.params.endpointId),
  )

  app.post(routePath('WebhookEndpoints_enable'), async (request: EndpointRequest) => ({
    endpoint: await deps.webhooks.enable(await merchantOf(request), request.params.endpointId),
  }))

  app.get(routePath('WebhookEndpoints_deliveries'), async (request: EndpointRequest) => ({
    data: await deps.webhooks.deliveries(await merchantOf(request), request.params.endpointId),
  }))

  app.post(
    routePath('WebhookEndpoints_redeliver'),
    async (request: FastifyRequest<{ Params: { endpointId: string; deliveryId: string } }>, reply) => {
      await deps.webhooks.redeliver(await merchantOf(request), request.params.endpointId, request.params.deliveryId)
      return reply.code(202).send({ queued: true })
    },
  )
}
