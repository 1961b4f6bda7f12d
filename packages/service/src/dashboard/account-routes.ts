import { z } from 'zod'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { type AuditAction, auditLog } from '../audit/index.ts'
import type { Clock } from '../core/clock.ts'
import type { Database, Queryable } from '../db/port.ts'
import { ApiError, fieldError, parseOrThrow } from '../errors.ts'
import { header } from '../http/context.ts'
import { ownAccount } from './account.ts'
import { byUser } from './audit-entry.ts'
import type { SessionGuards } from './guards.ts'
import type { DashboardPasskeys } from './passkeys.ts'
import { checkNewPassword, hashPassword, passwordMatches } from './passwords.ts'
import { type DashboardUser, tokenHash } from './people.ts'
import { sessionTokenOf } from './sessions.ts'
import type { DashboardReads } from './replica-reads.ts'

const PasskeyName = z
  .string({ error: 'must be a name you will know it by, e.g. "Work laptop"' })
  .trim()
  .min(1, { error: 'must not be empty: name it after the device, e.g. "Work laptop"' })
  .max(60, { error: 'must have at most 60 characters' })
const NewPasskey = z.strictObject({
  challengeId: z.string().min(1).max(64),
  response: z.looseObject({ id: z.string().min(1).max(1024), type: z.literal('public-key') }),
  name: PasskeyName,
})
const Rename = z.strictObject({ name: PasskeyName })
const PasswordChange = z.strictObject({ currentPassword: z.string().max(1024).optional(), newPassword: z.string().max(1024) })
type PasskeyParams = { Params: { passkeyId: string } }

/**
 * "Your account" (issue 26, point 6): a member's own passkeys (add, rename, remove), password (set, or
 * change with the current one) and open sessions (end one; "Sign out everywhere" ends all). Nobody is left
 * without a way to sign in. Each change and its audit entry commit together.
 */
export function dashboardAccountRoutes(
  app: FastifyInstance,
  deps: { db: Database; reads: DashboardReads; guards: SessionGuards; passkeys: DashboardPasskeys; clock: Clock },
) {
  const audited = (tx: Queryable, user: DashboardUser, request: FastifyRequest, action: AuditAction, details?: Record<string, unknown>) =>
    auditLog(tx).record(byUser(user, request, { action, target: user.id, at: deps.clock.now(), ...(details ? { details } : {}) }))

  app.get('/dashboard/api/account', async (request, reply) => {
    const { user } = await deps.guards.reading(request)
    const current = tokenHash(sessionTokenOf(header(request, 'Cookie')) ?? '')
    return reply.header('Cache-Control', 'no-store').send(await ownAccount(deps.reads(request)).view(user.id, current, deps.clock.now()))
  })

  app.post('/dashboard/api/account/passkeys/options', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    return reply.send(await deps.passkeys.addOptions(user))
  })

  app.post('/dashboard/api/account/passkeys', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    const body = parseOrThrow(NewPasskey, request.body ?? {}, 'body')
    const added = await deps.passkeys.add(user, { ...body, response: body.response as never }, { address: request.ip })
    return reply.code(201).send(added)
  })

  app.post<PasskeyParams>('/dashboard/api/account/passkeys/:passkeyId/rename', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    const { name } = parseOrThrow(Rename, request.body ?? {}, 'body')
    await deps.db.transaction(async (tx) => {
      if (!(await ownAccount(tx).renamePasskey(user.id, request.params.passkeyId, name))) throw noPasskey(request.params.passkeyId)
      await audited(tx, user, request, 'passkey_renamed', { passkey: request.params.passkeyId, name })
    })
    return reply.send({ id: request.params.passkeyId, name })
  })

  app.post<PasskeyParams>('/dashboard/api/account/passkeys/:passkeyId/remove', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    await deps.db.transaction(async (tx) => {
      if (!(await ownAccount(tx).removePasskey(user.id, request.params.passkeyId))) throw noPasskey(request.params.passkeyId)
      await audited(tx, user, request, 'passkey_removed', { passkey: request.params.passkeyId })
    })
    return reply.send({ id: request.params.passkeyId, status: 'removed' })
  })

  app.post('/dashboard/api/account/password', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    const body = parseOrThrow(PasswordChange, request.body ?? {}, 'body')
    const account = ownAccount(deps.db)
    const stored = await account.storedPassword(user.id)
    if (stored) {
      // Changing a password needs the current one: a session left open on a shared computer cannot take the account.
      if (!body.currentPassword || !(await passwordMatches(stored, body.currentPassword))) {
        throw fieldError('currentPassword', 'is not your current password')
      }
    }
    checkNewPassword(body.newPassword, 'newPassword')
    const hashed = await hashPassword(body.newPassword)
    await deps.db.transaction(async (tx) => {
      await ownAccount(tx).setPassword(user.id, hashed)
      await audited(tx, user, request, stored ? 'password_changed' : 'password_set')
    })
    return reply.send({ hasPassword: true })
  })

  app.post<{ Params: { sessionId: string } }>('/dashboard/api/account/sessions/:sessionId/end', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    await deps.db.transaction(async (tx) => {
      if (!(await ownAccount(tx).endSession(user.id, request.params.sessionId, deps.clock.now()))) {
        throw new ApiError('not_found', `No open session ${request.params.sessionId} of yours.`)
      }
      await audited(tx, user, request, 'session_ended', { session: request.params.sessionId })
    })
    return reply.send({ id: request.params.sessionId, status: 'ended' })
  })
}

const noPasskey = (id: string) => new ApiError('not_found', `No passkey ${id} of yours.`)
