import { z } from 'zod'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { type AuditAction, auditLog } from '../audit/index.ts'
import type { Clock } from '../core/clock.ts'
import type { Database, Queryable } from '../db/port.ts'
import { ApiError, parseOrThrow } from '../errors.ts'
import type { SessionGuards } from './guards.ts'
import { DASHBOARD_ROLES, type DashboardUser } from './people.ts'
import { byUser } from './audit-entry.ts'
import { requireWholePartner } from './routes.ts'
import { teamStore } from './team.ts'
import type { DashboardReads } from './replica-reads.ts'

const RoleChange = z.strictObject({ role: z.enum(DASHBOARD_ROLES, { error: 'must be owner, admin or viewer' }) })
type MemberParams = { Params: { userId: string } }

const noMember = (userId: string) => new ApiError('not_found', `No member ${userId} of this partner.`)

/**
 * The Team page's routes (issue 26, point 5), for owners of the whole partner: its members and open
 * invitations, a member's role changed, a member removed (their sessions end and passkeys go at once), a
 * member's passkey revoked. The partner always keeps an owner. Each change and its audit entry commit together.
 */
export function dashboardTeamRoutes(
  app: FastifyInstance,
  deps: { db: Database; reads: DashboardReads; guards: SessionGuards; clock: Clock },
) {
  const partnerOwner = (user: DashboardUser) => requireWholePartner(user, 'owner', 'The team’s members')
  const audited = (
    tx: Queryable,
    user: DashboardUser,
    request: FastifyRequest,
    action: AuditAction,
    target: string,
    details?: Record<string, unknown>,
  ) => auditLog(tx).record(byUser(user, request, { action, target, at: deps.clock.now(), ...(details ? { details } : {}) }))

  app.get('/dashboard/api/team', async (request, reply) => {
    const { user } = await deps.guards.reading(request)
    partnerOwner(user)
    return reply.header('Cache-Control', 'no-store').send(await teamStore(deps.reads(request)).members(user.partnerId, deps.clock.now()))
  })

  app.post<MemberParams>('/dashboard/api/team/:userId/role', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    partnerOwner(user)
    const { role } = parseOrThrow(RoleChange, request.body ?? {}, 'body')
    const { userId } = request.params
    await deps.db.transaction(async (tx) => {
      const before = await teamStore(tx).changeRole(user.partnerId, userId, role)
      if (before === undefined) throw noMember(userId)
      if (before !== role) await audited(tx, user, request, 'member_role_changed', userId, { from: before, to: role })
    })
    return reply.send({ id: userId, role })
  })

  app.post<MemberParams>('/dashboard/api/team/:userId/remove', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    partnerOwner(user)
    const { userId } = request.params
    await deps.db.transaction(async (tx) => {
      if (!(await teamStore(tx).remove(user.partnerId, userId, deps.clock.now()))) throw noMember(userId)
      await audited(tx, user, request, 'member_removed', userId)
    })
    return reply.send({ id: userId, status: 'removed' })
  })

  app.post<{ Params: { userId: string; passkeyId: string } }>(
    '/dashboard/api/team/:userId/passkeys/:passkeyId/revoke',
    async (request, reply) => {
      const { user } = await deps.guards.changing(request)
      partnerOwner(user)
      const { userId, passkeyId } = request.params
      await deps.db.transaction(async (tx) => {
        if (!(await teamStore(tx).revokePasskey(user.partnerId, userId, passkeyId))) {
          throw new ApiError('not_found', `No passkey ${passkeyId} of member ${userId}.`)
        }
        await audited(tx, user, request, 'passkey_revoked', userId, { passkey: passkeyId })
      })
      return reply.send({ id: passkeyId, status: 'revoked' })
    },
  )
}
