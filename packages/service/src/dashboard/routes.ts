import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { ApiError, parseOrThrow } from '../errors.ts'
import { header } from '../http/context.ts'
import { DASHBOARD_ROLES, type DashboardRole, type DashboardUser } from './people.ts'
import type { SessionGuards } from './guards.ts'
import type { DashboardPasskeys } from './passkeys.ts'
import type { DashboardPeople, SignedIn } from './service.ts'
import { endedSessionCookie, SESSION_MAX_MS, sessionCookie, sessionTokenOf } from './sessions.ts'
import type { DashboardReads } from './replica-reads.ts'
import { auditLog } from '../audit/index.ts'

// The dashboard's API (issue 25): session-authenticated routes under /dashboard/api/, for its browser code,
// which never holds an API key (guards.ts says who is asking).

const Credentials = z.strictObject({ email: z.string().min(1).max(320), password: z.string().min(1).max(1024) })
const NewPassword = z.strictObject({ password: z.string().max(1024) })
const NewInvitation = z.strictObject({
  email: z.string().min(1).max(320),
  role: z.enum(DASHBOARD_ROLES),
  merchantId: z.string().min(1).nullable().optional(),
})
// The authenticator's answer is checked by @simplewebauthn/server; here only its envelope.
const PasskeyAnswer = z.strictObject({
  challengeId: z.string().min(1).max(64),
  response: z.looseObject({ id: z.string().min(1).max(1024), type: z.literal('public-key') }),
})
const AuditQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) })

/** What the browser code is told of the signed-in user; never a hash, never a token but the CSRF one. */
const userView = (user: DashboardUser) => ({
  id: user.id,
  email: user.email,
  role: user.role,
  partnerId: user.partnerId,
  merchantId: user.merchantId,
})

const RANK: Record<DashboardRole, number> = { viewer: 0, admin: 1, owner: 2 }

/** Refuses (403) a user whose role is below `least`: the server decides, whatever the page shows. */
export function requireRole(user: DashboardUser, least: DashboardRole): void {
  if (RANK[user.role] < RANK[least]) {
    throw new ApiError('role_forbidden', `This needs the ${least} role; you are ${user.role === 'admin' ? 'an' : 'a'} ${user.role}.`)
  }
}

/** What belongs to the whole partner: the role, and no limit to one merchant; `what` names it in the refusal. */
export function requireWholePartner(user: DashboardUser, least: DashboardRole, what: string): void {
  requireRole(user, least)
  if (user.merchantId !== null) {
    throw new ApiError('role_forbidden', `${what} are the whole partner’s: a user limited to one merchant cannot manage them.`)
  }
}

export function dashboardRoutes(
  app: FastifyInstance,
  deps: {
    people: DashboardPeople
    passkeys: DashboardPasskeys
    guards: SessionGuards
    reads: DashboardReads
    invitationUrl: (token: string) => string
  },
) {
  const origin = (request: FastifyRequest) => ({ address: request.ip })
  const { sameOrigin, reading, changing } = deps.guards

  function startSession(reply: FastifyReply, signed: SignedIn, status: number) {
    reply.header('Set-Cookie', sessionCookie(signed.token, SESSION_MAX_MS)).header('Cache-Control', 'no-store')
    return reply.code(status).send({ user: userView(signed.user), csrfToken: signed.session.csrfToken })
  }

  app.get<{ Params: { token: string } }>('/dashboard/api/invitations/:token', async (request, reply) => {
    const invitation = await deps.people.invitation(request.params.token)
    return reply
      .header('Cache-Control', 'no-store')
      .send({ email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt })
  })

  app.post<{ Params: { token: string } }>('/dashboard/api/invitations/:token/password', async (request, reply) => {
    sameOrigin(request)
    const { password } = parseOrThrow(NewPassword, request.body, 'body')
    return startSession(reply, await deps.people.acceptWithPassword(request.params.token, password, origin(request)), 201)
  })

  // Passkeys: each ceremony is two requests, the options and the authenticator's answer to them.
  app.post<{ Params: { token: string } }>('/dashboard/api/invitations/:token/passkey/options', async (request, reply) => {
    sameOrigin(request)
    return reply.header('Cache-Control', 'no-store').send(await deps.passkeys.registrationOptions(request.params.token))
  })

  app.post<{ Params: { token: string } }>('/dashboard/api/invitations/:token/passkey', async (request, reply) => {
    sameOrigin(request)
    const { challengeId, response } = parseOrThrow(PasskeyAnswer, request.body, 'body')
    const signed = await deps.passkeys.acceptWithPasskey(request.params.token, challengeId, response as never, origin(request))
    return startSession(reply, signed, 201)
  })

  app.post('/dashboard/api/passkey/options', async (request, reply) => {
    sameOrigin(request)
    return reply.header('Cache-Control', 'no-store').send(await deps.passkeys.signInOptions())
  })

  app.post('/dashboard/api/passkey/sign-in', async (request, reply) => {
    sameOrigin(request)
    const { challengeId, response } = parseOrThrow(PasskeyAnswer, request.body, 'body')
    return startSession(reply, await deps.passkeys.signIn(challengeId, response as never, origin(request)), 200)
  })

  app.post('/dashboard/api/sign-in', async (request, reply) => {
    sameOrigin(request)
    const { email, password } = parseOrThrow(Credentials, request.body, 'body')
    return startSession(reply, await deps.people.signIn(email, password, origin(request)), 200)
  })

  app.get('/dashboard/api/session', async (request, reply) => {
    const { user, session } = await reading(request)
    return reply.header('Cache-Control', 'no-store').send({ user: userView(user), csrfToken: session.csrfToken })
  })

  app.post('/dashboard/api/sign-out', async (request, reply) => {
    const { user } = await changing(request)
    await deps.people.signOut(sessionTokenOf(header(request, 'Cookie')) ?? '', user, origin(request))
    return reply.header('Set-Cookie', endedSessionCookie).code(204).send()
  })

  app.post('/dashboard/api/sign-out-everywhere', async (request, reply) => {
    const { user } = await changing(request)
    const ended = await deps.people.signOutEverywhere(user, origin(request))
    return reply.header('Set-Cookie', endedSessionCookie).send({ ended })
  })

  // Owners invite; the link is shown to them to send, as Till sends no email.
  app.post('/dashboard/api/invitations', async (request, reply) => {
    const { user } = await changing(request)
    requireRole(user, 'owner')
    const body = parseOrThrow(NewInvitation, request.body, 'body')
    const merchantId = user.merchantId ?? body.merchantId ?? null
    const { token, invitation } = await deps.people.invite({
      ...body,
      merchantId,
      partnerId: user.partnerId,
      invitedBy: user,
      origin: origin(request),
    })
    return reply
      .code(201)
      .send({ invitationUrl: deps.invitationUrl(token), email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt })
  })

  app.get('/dashboard/api/audit-log', async (request, reply) => {
    const { user } = await reading(request)
    requireRole(user, 'owner')
    const { limit } = parseOrThrow(AuditQuery, request.query, 'query')
    const entries = await auditLog(deps.reads(request)).page(user.partnerId, { limit })
    return reply.header('Cache-Control', 'no-store').send({ data: entries.map((entry) => ({ ...entry, at: entry.at.toISOString() })) })
  })
}
