import { CreateMerchantRequest, IDEMPOTENCY_KEY_HEADER, type Merchant, UpdateMerchantRequest } from '@till/contract'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AuditAction } from '../audit/index.ts'
import type { Clock } from '../core/clock.ts'
import { parseOrThrow } from '../errors.ts'
import { header } from '../http/context.ts'
import { idempotencyKeyOf } from '../http/idempotency.ts'
import type { MerchantService } from '../merchants/index.ts'
import type { SessionGuards } from './guards.ts'
import type { DashboardUser } from './people.ts'
import { byUser } from './audit-entry.ts'
import { requireWholePartner } from './routes.ts'
import type { DashboardPeople } from './service.ts'

// The logo is served by this same Till under its checkout address, which may carry another host name than
// the dashboard's (127.0.0.1 against localhost): a path loads it from the page's own origin, as its CSP wants.
const fromHere = (merchant: Merchant): Merchant => ({ ...merchant, iconUrl: merchant.iconUrl && new URL(merchant.iconUrl).pathname })

/**
 * The Merchants page's routes (issue 26, point 1) over the merchants area's own service, as `/v1` uses it:
 * everyone sees the merchants they may see (the Payments page's merchant filter too); admins and owners of
 * the whole partner create and change them, with the API's refusals word for word. Each change is audited.
 */
export function dashboardMerchantRoutes(
  app: FastifyInstance,
  deps: { merchants: MerchantService; guards: SessionGuards; people: DashboardPeople; clock: Clock },
) {
  const partnerAdmin = (user: DashboardUser) => requireWholePartner(user, 'admin', 'Merchants')
  const audit = (user: DashboardUser, request: FastifyRequest, action: AuditAction, target: string) =>
    deps.people.audit.record(byUser(user, request, { action, target, at: deps.clock.now() }))

  app.get('/dashboard/api/merchants', async (request, reply) => {
    const { user } = await deps.guards.reading(request)
    const merchants = await deps.merchants.list(user.partnerId)
    const data = merchants.filter((m) => user.merchantId === null || m.id === user.merchantId).map(fromHere)
    return reply.header('Cache-Control', 'no-store').send({ data })
  })

  app.post('/dashboard/api/merchants', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    partnerAdmin(user)
    const key = idempotencyKeyOf(header(request, IDEMPOTENCY_KEY_HEADER))
    const body = parseOrThrow(CreateMerchantRequest, request.body, 'body')
    const { merchant, replayed } = await deps.merchants.create({
      partnerId: user.partnerId,
      request: body,
      idempotencyKey: `dashboard:${user.id}:${key}`,
    })
    if (!replayed) await audit(user, request, 'merchant_created', merchant.id)
    return reply.code(201).send({ merchant: fromHere(merchant) })
  })

  app.post<{ Params: { merchantId: string } }>('/dashboard/api/merchants/:merchantId', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    partnerAdmin(user)
    const body = parseOrThrow(UpdateMerchantRequest, request.body, 'body')
    const merchant = await deps.merchants.update({ partnerId: user.partnerId, merchantId: request.params.merchantId, request: body })
    await audit(user, request, 'merchant_updated', merchant.id)
    return reply.send({ merchant: fromHere(merchant) })
  })
}
