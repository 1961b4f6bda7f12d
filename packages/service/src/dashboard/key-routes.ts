import { z } from 'zod'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { accountStore, type ApiKeyView } from '../accounts/index.ts'
import { type AuditAction, auditLog } from '../audit/index.ts'
import type { Clock } from '../core/clock.ts'
import type { Database, Queryable } from '../db/port.ts'
import { ApiError, parseOrThrow } from '../errors.ts'
import type { SessionGuards } from './guards.ts'
import type { DashboardUser } from './people.ts'
import { byUser } from './audit-entry.ts'
import { requireWholePartner } from './routes.ts'
import type { DashboardReads } from './replica-reads.ts'

const NewKey = z.strictObject({
  label: z
    .string({ error: 'must be a name that tells this key apart, e.g. "Shop backend"' })
    .trim()
    .min(1, { error: 'must not be empty: name the key after what uses it, e.g. "Shop backend"' })
    .max(100, { error: 'must have at most 100 characters' }),
})

/** A key as the API keys page lists it: its public prefix, never its secret. */
function keyView(key: ApiKeyView, mode: 'live' | 'test') {
  return {
    id: key.id,
    prefix: `till_sk_${mode}_${key.id}`,
    label: key.label,
    createdBy: key.createdBy,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    status: key.revokedAt ? ('revoked' as const) : ('active' as const),
  }
}

/**
 * The API keys page's routes (issue 26, point 2): the partner's keys listed, made (the secret shown once,
 * in the answer to the request that made it) and revoked, by owners of the whole partner only: a key opens
 * every merchant of it. Each change is in the audit log.
 */
export function dashboardKeyRoutes(
  app: FastifyInstance,
  deps: {
    db: Database
    reads: DashboardReads
    guards: SessionGuards
    clock: Clock
    /** This instance forgets the key at once; the others hear of it from the revocation's NOTIFY. */
    forgetKey: (keyId: string) => void
  },
) {
  const accounts = accountStore(deps.db)
  const partnerOwner = (user: DashboardUser) => requireWholePartner(user, 'owner', 'API keys')
  async function modeOf(partnerId: string): Promise<'live' | 'test'> {
    return (await accounts.findPartner(partnerId))?.sandbox ? 'test' : 'live'
  }
  // The change and its audit entry commit together.
  const audited = (tx: Queryable, user: DashboardUser, request: FastifyRequest, action: AuditAction, target: string) =>
    auditLog(tx).record(byUser(user, request, { action, target, at: deps.clock.now() }))

  app.get('/dashboard/api/api-keys', async (request, reply) => {
    const { user } = await deps.guards.reading(request)
    partnerOwner(user)
    const mode = await modeOf(user.partnerId)
    const keys = await accountStore(deps.reads(request)).listApiKeys(user.partnerId)
    return reply.header('Cache-Control', 'no-store').send({ data: keys.map((key) => keyView(key, mode)) })
  })

  app.post('/dashboard/api/api-keys', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    partnerOwner(user)
    const { label } = parseOrThrow(NewKey, request.body ?? {}, 'body')
    const mode = await modeOf(user.partnerId)
    const now = deps.clock.now()
    const issued = await deps.db.transaction(async (tx) => {
      const key = await accountStore(tx).createApiKey({ partnerId: user.partnerId, mode, label, createdBy: user.email, now })
      await audited(tx, user, request, 'api_key_created', key.id)
      return key
    })
    const view = keyView({ id: issued.id, label, createdBy: user.email, createdAt: now, lastUsedAt: null, revokedAt: null }, mode)
    // The only time the secret leaves Till: it is stored as a hash.
    return reply.code(201).header('Cache-Control', 'no-store').send({ apiKey: view, key: issued.key })
  })

  app.post<{ Params: { keyId: string } }>('/dashboard/api/api-keys/:keyId/revoke', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    partnerOwner(user)
    const { keyId } = request.params
    await deps.db.transaction(async (tx) => {
      if (!(await accountStore(tx).revokeApiKey(user.partnerId, keyId, deps.clock.now()))) {
        throw new ApiError('not_found', `No active API key ${keyId}.`)
      }
      await audited(tx, user, request, 'api_key_revoked', keyId)
    })
    deps.forgetKey(keyId)
    return reply.send({ id: keyId, status: 'revoked' })
  })
}
