import { CreateWebhookEndpointRequest } from '@till/contract'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { parseOrThrow } from '../errors.ts'
import type { WebhookService } from './service.ts'
import type { Authenticator } from '../http/auth.ts'
import { principalOf, requireMerchant } from '../http/context.ts'

type EndpointRequest = FastifyRequest<{ Params: { id: string } }>

/**
 * Webhook endpoints of the merchant named by Merchant-Id (Api-Key + Merchant-Id, as the merchant checkout
 * API): a documented extension of the spec, which leaves server-to-server notifications "not shown".
 */
export function webhookEndpointRoutes(app: FastifyInstance, deps: { auth: Authenticator; webhooks: WebhookService }) {
  const merchantOf = (request: FastifyRequest) => requireMerchant(request, deps.auth)

  app.post('/v1/webhook-endpoints', async (request, reply) => {
    const merchantId = await merchantOf(request)
    const body = parseOrThrow(CreateWebhookEndpointRequest, request.body, 'body')
    const created = await deps.webhooks.create({ partnerId: principalOf(request).partnerId, merchantId, request: body })
    return reply.code(201).send(created)
  })

  app.get('/v1/webhook-endpoints', async (request) => ({ data: await deps.webhooks.list(await merchantOf(request)) }))

  app.delete('/v1/webhook-endpoints/:id', async (request: EndpointRequest, reply) => {
    await deps.webhooks.remove(await merchantOf(request), request.params.id)
    return reply.code(204).send()
  })

  app.post('/v1/webhook-endpoints/:id/rotate-secret', async (request: EndpointRequest) =>
    deps.webhooks.rotate(await merchantOf(request), request.params.id),
  )

  app.post('/v1/webhook-endpoints/:id/enable', async (request: EndpointRequest) => ({
    endpoint: await deps.webhooks.enable(await merchantOf(request), request.params.id),
  }))

  app.get('/v1/webhook-endpoints/:id/deliveries', async (request: EndpointRequest) => ({
    data: await deps.webhooks.deliveries(await merchantOf(request), request.params.id),
  }))

  app.post(
    '/v1/webhook-endpoints/:id/deliveries/:deliveryId/redeliver',
    async (request: FastifyRequest<{ Params: { id: string; deliveryId: string } }>, reply) => {
      await deps.webhooks.redeliver(await merchantOf(request), request.params.id, request.params.deliveryId)
      return reply.code(202).send({ queued: true })
    },
  )
}
