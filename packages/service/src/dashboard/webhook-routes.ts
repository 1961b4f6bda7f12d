import { CreateWebhookEndpointRequest, WEBHOOK_EVENT_TYPES, WebhookEventType } from '@till/contract'
import { z } from 'zod'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AuditAction } from '../audit/index.ts'
import type { Clock } from '../core/clock.ts'
import { parseOrThrow } from '../errors.ts'
import type { MerchantService } from '../merchants/index.ts'
import type { WebhookService } from '../webhooks/index.ts'
import type { SessionGuards } from './guards.ts'
import { visibleMerchant } from './merchant-access.ts'
import type { DashboardUser } from './people.ts'
import { byUser } from './audit-entry.ts'
import { requireRole } from './routes.ts'
import type { DashboardPeople } from './service.ts'

const DeliveryFilter = z.strictObject({
  failed: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  type: z.union([WebhookEventType, z.literal('ping')], { error: 'must be an event type, e.g. payment.succeeded, or ping' }).optional(),
})
type EndpointParams = { Params: { merchantId: string; endpointId: string } }
const ENDPOINT = '/dashboard/api/merchants/:merchantId/webhooks/:endpointId'

/**
 * The Webhooks page's routes (issue 26, point 3) over the webhooks area's own service, as /v1 uses it: a
 * merchant's endpoints with their latest delivery; for admins and owners, add one (its secret shown once),
 * enable, disable, delete, rotate the secret (the old one signs for 24 h), send a signed test event, and
 * redeliver; every delivery attempt by attempt with the request as it was sent, filtered by failure and
 * event type. Each change is audited.
 */
export function dashboardWebhookRoutes(
  app: FastifyInstance,
  deps: { guards: SessionGuards; people: DashboardPeople; merchants: MerchantService; webhooks: WebhookService; clock: Clock },
) {
  const visible = (user: DashboardUser, merchantId: string) => visibleMerchant(deps.merchants, user, merchantId)
  /** An admin's or owner's change to an endpoint of a merchant they may see, then its audit entry. */
  async function change<T>(
    request: FastifyRequest<EndpointParams>,
    action: AuditAction,
    work: (merchantId: string, user: DashboardUser) => Promise<T>,
  ): Promise<T> {
    const { user } = await deps.guards.changing(request)
    requireRole(user, 'admin')
    const merchantId = await visible(user, request.params.merchantId)
    const done = await work(merchantId, user)
    await deps.people.audit.record(
      byUser(user, request, { action, target: request.params.endpointId, details: { merchantId }, at: deps.clock.now() }),
    )
    return done
  }

  app.get<{ Params: { merchantId: string } }>('/dashboard/api/merchants/:merchantId/webhooks', async (request, reply) => {
    const { user } = await deps.guards.reading(request)
    const merchantId = await visible(user, request.params.merchantId)
    // The event types an endpoint may ask for, for the page's form: the contract's list, not a copy of it.
    return reply
      .header('Cache-Control', 'no-store')
      .send({ data: await deps.webhooks.overview(merchantId), eventTypes: WEBHOOK_EVENT_TYPES })
  })

  app.post<{ Params: { merchantId: string } }>('/dashboard/api/merchants/:merchantId/webhooks', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    requireRole(user, 'admin')
    const merchantId = await visible(user, request.params.merchantId)
    const body = parseOrThrow(CreateWebhookEndpointRequest, request.body ?? {}, 'body')
    const created = await deps.webhooks.create({ partnerId: user.partnerId, merchantId, request: body })
    await deps.people.audit.record(
      byUser(user, request, {
        action: 'webhook_endpoint_created',
        target: created.endpoint.id,
        details: { merchantId },
        at: deps.clock.now(),
      }),
    )
    // The only time the secret is shown: Till keeps it sealed.
    return reply.code(201).header('Cache-Control', 'no-store').send(created)
  })

  app.post<EndpointParams>(`${ENDPOINT}/enable`, async (request) => ({
    endpoint: await change(request, 'webhook_endpoint_enabled', (merchantId) =>
      deps.webhooks.enable(merchantId, request.params.endpointId),
    ),
  }))

  app.post<EndpointParams>(`${ENDPOINT}/disable`, async (request) => ({
    endpoint: await change(request, 'webhook_endpoint_disabled', (merchantId, user) =>
      deps.webhooks.disable(merchantId, request.params.endpointId, `disabled by ${user.email}`),
    ),
  }))

  app.post<EndpointParams>(`${ENDPOINT}/rotate-secret`, async (request, reply) => {
    const rotated = await change(request, 'webhook_secret_rotated', (merchantId) =>
      deps.webhooks.rotate(merchantId, request.params.endpointId),
    )
    return reply.header('Cache-Control', 'no-store').send(rotated)
  })

  app.post<EndpointParams>(`${ENDPOINT}/delete`, async (request) => {
    await change(request, 'webhook_endpoint_deleted', (merchantId) => deps.webhooks.remove(merchantId, request.params.endpointId))
    return { id: request.params.endpointId, status: 'deleted' }
  })

  app.post<EndpointParams>(`${ENDPOINT}/test`, async (request, reply) => {
    const deliveryId = await change(request, 'webhook_test_sent', (merchantId, user) =>
      deps.webhooks.sendTest(user.partnerId, merchantId, request.params.endpointId),
    )
    return reply.code(202).send({ deliveryId, status: 'pending' })
  })

  app.get<EndpointParams>(`${ENDPOINT}/deliveries`, async (request, reply) => {
    const { user } = await deps.guards.reading(request)
    const merchantId = await visible(user, request.params.merchantId)
    const filter = parseOrThrow(DeliveryFilter, request.query ?? {}, 'query')
    const log = await deps.webhooks.log(merchantId, request.params.endpointId, {
      failedOnly: filter.failed === 'true',
      ...(filter.type ? { type: filter.type } : {}),
    })
    return reply.header('Cache-Control', 'no-store').send({ data: log })
  })

  app.post<{ Params: { merchantId: string; endpointId: string; deliveryId: string } }>(
    `${ENDPOINT}/deliveries/:deliveryId/redeliver`,
    async (request, reply) => {
      await change(request, 'webhook_redelivered', (merchantId) =>
        deps.webhooks.redeliver(merchantId, request.params.endpointId, request.params.deliveryId),
      )
      return reply.code(202).send({ deliveryId: request.params.deliveryId, status: 'pending' })
    },
  )
}
