import type { Clock } from '../core/clock.ts'
import type { Database, Queryable } from '../db/port.ts'
import { ApiError, fieldError } from '../errors.ts'
import { accountStore } from '../accounts/index.ts'
import { type AuditLog, auditLog } from '../audit/index.ts'
import { teamStore } from './team.ts'
import { checkNewPassword, hashPassword, passwordMatches, spendAsVerifying } from './passwords.ts'
import {
  type DashboardRole,
  type DashboardUser,
  type Invitation,
  newInvitationId,
  newSecretToken,
  newUserId,
  peopleStore,
} from './people.ts'
import { type Session, sessionStore } from './sessions.ts'

/** An invitation link works once, for a day (issue 25, point 2). */
export const INVITATION_TTL_MS = 24 * 60 * 60 * 1000
/**
 * Failed sign-ins allowed in a quarter of an hour: per account (a guesser at one account), and per address
 * (one guesser at many). Counted from the audit log, so every instance refuses alike.
 */
export const SIGN_IN_LIMITS = { windowMs: 15 * 60 * 1000, perAccount: 5, perAddress: 20 }

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Who is asking, for the log: the client's address (behind --trust-proxy, the forwarded one). */
export type Origin = { address: string | null }

export type SignedIn = { user: DashboardUser; token: string; session: Session }

/**
 * The one way an invitation becomes an account, in the caller's transaction: the link is used up (of two
 * acceptances, one wins), the user is made with the invitation's partner, merchant and role, and the log says so.
 * `passwordHash` is null for an account made with a passkey, which the caller then stores in the same commit.
 */
export async function joinByInvitation(
  tx: Queryable,
  input: { invitation: Invitation; passwordHash: string | null; origin: Origin; now: Date; with?: 'passkey' },
): Promise<DashboardUser> {
  const { invitation, now } = input
  if (!(await peopleStore(tx).useInvitation(invitation.id, now))) {
    throw new ApiError('invitation_used', 'This invitation was already used. Sign in instead.')
  }
  const created = await peopleStore(tx).createUser({
    id: newUserId(),
    partnerId: invitation.partnerId,
    merchantId: invitation.merchantId,
    email: invitation.email,
    role: invitation.role,
    passwordHash: input.passwordHash,
    createdAt: now,
  })
  if (!created) throw fieldError('email', 'already has a dashboard account; sign in with it')
  await auditLog(tx).record({
    partnerId: created.partnerId,
    userId: created.id,
    actor: created.email,
    action: 'invitation_accepted',
    target: invitation.id,
    address: input.origin.address,
    ...(input.with ? { details: { with: input.with } } : {}),
    at: now,
  })
  return created
}

const signInFailed = () => new ApiError('sign_in_failed', 'The email or the password is wrong.')

/** The dashboard's people: invitations, accounts with passwords, sessions, and the log of what they did. */
export function dashboardPeople(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps
  const people = peopleStore(db)
  const sessions = sessionStore(db)
  const audit: AuditLog = auditLog(db)

  async function signedIn(user: DashboardUser, origin: Origin): Promise<SignedIn> {
    const now = clock.now()
    const { token, session } = await sessions.start({ userId: user.id, now, address: origin.address })
    await teamStore(db).signedIn(user.id, now)
    await audit.record({
      partnerId: user.partnerId,
      userId: user.id,
      actor: user.email,
      action: 'sign_in',
      address: origin.address,
      at: now,
    })
    return { user, token, session }
  }

  /** The invitation a link names while it can be used; 404, or 410 once used or expired. */
  async function usable(token: string): Promise<Invitation> {
    const invitation = await people.invitationByToken(token)
    if (!invitation) throw new ApiError('invitation_not_found', 'This invitation link is not valid. Ask for a new one.')
    if (invitation.usedAt) throw new ApiError('invitation_used', 'This invitation was already used. Sign in instead.')
    if (invitation.expiresAt <= clock.now()) throw new ApiError('invitation_expired', 'This invitation has expired. Ask for a new one.')
    return invitation
  }

  return {
    audit,

    /** A session for a user whose credentials were checked (a password here, a passkey in passkeys.ts). */
    startSession: signedIn,

    /** An invitation for `email` to join the partner with `role`: its token, shown once, goes in the link. */
    async invite(input: {
      partnerId: string
      email: string
      role: DashboardRole
      merchantId?: string | null
      invitedBy: DashboardUser | null
      origin: Origin
    }): Promise<{ token: string; invitation: Invitation }> {
      const email = input.email.trim().toLowerCase()
      if (!EMAIL.test(email)) throw fieldError('email', 'must be an email address, such as ana@shop.example')
      if (input.merchantId) {
        const merchant = await accountStore(db).findMerchant(input.merchantId)
        if (merchant?.partnerId !== input.partnerId)
          throw fieldError('merchantId', 'must be one of your merchants, or empty for all of them')
      }
      const now = clock.now()
      const invitation: Invitation = {
        id: newInvitationId(),
        partnerId: input.partnerId,
        merchantId: input.merchantId ?? null,
        email,
        role: input.role,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
        usedAt: null,
      }
      const token = newSecretToken()
      await db.transaction(async (tx) => {
        await peopleStore(tx).invite({ ...invitation, token, invitedBy: input.invitedBy?.id ?? null })
        await auditLog(tx).record({
          partnerId: input.partnerId,
          userId: input.invitedBy?.id ?? null,
          actor: input.invitedBy?.email ?? 'command line',
          action: 'invitation_created',
          target: email,
          address: input.origin.address,
          details: { role: input.role, merchantId: invitation.merchantId },
          at: now,
        })
      })
      return { token, invitation }
    },

    /** Whether an account exists for this email: the sandbox invites its owner only until it does. */
    hasAccount: async (email: string) => (await people.userByEmail(email)) !== undefined,

    /** What the invitation page shows before the account is made. */
    invitation: usable,

    /** The invitation page made a password: the account exists, the link is used, and the user is signed in. */
    async acceptWithPassword(token: string, password: string, origin: Origin): Promise<SignedIn> {
      const invitation = await usable(token)
      checkNewPassword(password)
      const passwordHash = await hashPassword(password)
      const now = clock.now()
      const user = await db.transaction((tx) => joinByInvitation(tx, { invitation, passwordHash, origin, now }))
      return signedIn(user, origin)
    },

    /**
     * Email and password. Every refusal is the same 401, whether or not the account exists, and takes as long;
     * failed attempts are logged and limited per account and per address (429 with Retry-After).
     */
    async signIn(emailGiven: string, password: string, origin: Origin): Promise<SignedIn> {
      const email = emailGiven.trim().toLowerCase()
      const now = clock.now()
      const failed = await audit.failedSignIns({
        actor: email,
        address: origin.address,
        since: new Date(now.getTime() - SIGN_IN_LIMITS.windowMs),
      })
      if (failed.account >= SIGN_IN_LIMITS.perAccount || failed.address >= SIGN_IN_LIMITS.perAddress) {
        throw new ApiError('rate_limited', 'Too many failed sign-ins. Wait a quarter of an hour and try again.', {
          retryAfterSeconds: Math.ceil(SIGN_IN_LIMITS.windowMs / 1000),
        })
      }
      const user = await people.userByEmail(email)
      let matches = false
      if (user?.passwordHash) matches = await passwordMatches(user.passwordHash, password)
      else await spendAsVerifying(password)
      if (!user || !matches) {
        await audit.record({
          partnerId: user?.partnerId ?? null,
          userId: user?.id ?? null,
          actor: email,
          action: 'sign_in_failed',
          address: origin.address,
          at: now,
        })
        throw signInFailed()
      }
      return signedIn(user, origin)
    },

    /** The signed-in user a session token names, or 401 not_signed_in. */
    async authenticate(token: string | undefined): Promise<{ user: DashboardUser; session: Session }> {
      const session = token ? await sessions.find(token, clock.now()) : undefined
      const user = session && (await people.userById(session.userId))
      if (!session || !user) throw new ApiError('not_signed_in', 'Sign in to the dashboard (the session ended or never began).')
      return { user, session }
    },

    async signOut(token: string, user: DashboardUser, origin: Origin): Promise<void> {
      const now = clock.now()
      await sessions.end(token, now)
      await audit.record({
        partnerId: user.partnerId,
        userId: user.id,
        actor: user.email,
        action: 'sign_out',
        address: origin.address,
        at: now,
      })
    },

    async signOutEverywhere(user: DashboardUser, origin: Origin): Promise<number> {
      const now = clock.now()
      const ended = await sessions.endAll(user.id, now)
      await audit.record({
        partnerId: user.partnerId,
        userId: user.id,
        actor: user.email,
        action: 'sign_out_everywhere',
        address: origin.address,
        details: { sessions: ended },
        at: now,
      })
      return ended
    },
  }
}

export type DashboardPeople = ReturnType<typeof dashboardPeople>
