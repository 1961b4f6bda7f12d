import { Caip10, IDEMPOTENCY_KEY_HEADER, type RawQuery, type UnappliedTransferList } from '@till/contract'
import { z } from 'zod'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Clock } from '../core/clock.ts'
import { parseOrThrow } from '../errors.ts'
import { header } from '../http/context.ts'
import { idempotencyKeyOf } from '../http/idempotency.ts'
import type { MerchantService } from '../merchants/index.ts'
import type { RefundService } from '../refunds/index.ts'
import type { SessionGuards } from './guards.ts'
import { visibleMerchant } from './merchant-access.ts'
import type { DashboardUser } from './people.ts'
import { byUser } from './audit-entry.ts'
import { requireRole } from './routes.ts'
import type { DashboardPeople } from './service.ts'

// POST /v1/refunds's fields for an unapplied transfer: refunded whole, to `destination` or to a claim.
const RefundForm = z.strictObject({
  unappliedTransferId: z.string().min(1).max(200),
  reason: z.string().trim().min(1).max(500).optional(),
  destination: Caip10.optional(),
})
type MerchantParams = { Params: { merchantId: string } }

/**
 * The Unapplied transfers page's routes (issue 26, point 4): a merchant's transfers that paid nothing, with
 * their transaction at the network's explorer, and "Refund" for admins and owners, which makes the refund as
 * POST /v1/refunds does and answers its claim and pay links. Audited as refunds are.
 */
export function dashboardUnappliedRoutes(
  app: FastifyInstance,
  deps: {
    guards: SessionGuards
    people: DashboardPeople
    merchants: MerchantService
    refunds: RefundService
    pages: (merchantId: string, query: RawQuery) => Promise<UnappliedTransferList>
    explorerTxUrl: (network: string, hash: string) => string | null
    clock: Clock
  },
) {
  const visible = (user: DashboardUser, merchantId: string) => visibleMerchant(deps.merchants, user, merchantId)

  app.get<MerchantParams>('/dashboard/api/merchants/:merchantId/unapplied-transfers', async (request, reply) => {
    const { user } = await deps.guards.reading(request)
    const merchantId = await visible(user, request.params.merchantId)
    const page = await deps.pages(merchantId, request.query as RawQuery)
    const data = page.data.map((transfer) => ({
      ...transfer,
      explorerUrl: deps.explorerTxUrl(transfer.transaction.networkId, transfer.transaction.hash),
    }))
    return reply.header('Cache-Control', 'no-store').send({ data, nextCursor: page.nextCursor })
  })

  app.post<MerchantParams>(
    '/dashboard/api/merchants/:merchantId/unapplied-transfers/refunds',
    async (request: FastifyRequest<MerchantParams>, reply) => {
      const { user } = await deps.guards.changing(request)
      requireRole(user, 'admin')
      const key = idempotencyKeyOf(header(request, IDEMPOTENCY_KEY_HEADER))
      const form = parseOrThrow(RefundForm, request.body ?? {}, 'body')
      const merchantId = await visible(user, request.params.merchantId)
      const answer = await deps.refunds.create({
        partnerId: user.partnerId,
        merchantId,
        request: form,
        idempotencyKey: `dashboard:${user.id}:${key}`,
      })
      if (!answer.replayed) {
        await deps.people.audit.record(
          byUser(user, request, {
            action: 'refund_created',
            target: answer.body.id,
            details: { unappliedTransferId: form.unappliedTransferId },
            at: deps.clock.now(),
          }),
        )
      }
      return reply.code(answer.status).send(answer.body)
    },
  )
}
