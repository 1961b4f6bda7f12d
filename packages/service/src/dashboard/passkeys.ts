import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server'
import type { Clock } from '../core/clock.ts'
import { randomToken } from '../core/ids.ts'
import type { Database, Queryable } from '../db/port.ts'
import { ApiError } from '../errors.ts'
import { auditLog } from '../audit/index.ts'
import { type DashboardUser, peopleStore } from './people.ts'
import { type DashboardPeople, joinByInvitation, type Origin, type SignedIn } from './service.ts'

// A ceremony's challenge works once, for five minutes: long enough to find the authenticator.
const CHALLENGE_TTL_MS = 5 * 60 * 1000

/** Where passkeys are valid: the dashboard's origin, and its host name as the relying party. */
export type RelyingParty = { origin: () => string; rpId: () => string }

const signInFailed = () => new ApiError('sign_in_failed', 'This passkey could not sign you in. Try again, or sign in with your password.')

async function storeChallenge(
  db: Queryable,
  input: { challenge: string; purpose: 'register' | 'sign_in'; invitationId?: string; userId?: string; now: Date },
) {
  const id = `chl_${randomToken(16)}`
  await db.query(
    'INSERT INTO dashboard_challenges (id, challenge, purpose, invitation_id, user_id, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [
      id,
      input.challenge,
      input.purpose,
      input.invitationId ?? null,
      input.userId ?? null,
      new Date(input.now.getTime() + CHALLENGE_TTL_MS),
    ],
  )
  return id
}

async function keepPasskey(
  db: Queryable,
  input: {
    credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] | undefined }
    userId: string
    name: string
    now: Date
  },
) {
  const { credential } = input
  await db.query(
    `INSERT INTO dashboard_passkeys (credential_id, user_id, public_key, counter, transports, name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      credential.id,
      input.userId,
      Buffer.from(credential.publicKey),
      String(credential.counter),
      credential.transports ?? [],
      input.name,
      input.now,
    ],
  )
}

/** Takes the challenge for good, if it is still usable: of two answers to one challenge, one is checked. */
async function takeChallenge(db: Queryable, id: string, purpose: 'register' | 'sign_in', now: Date) {
  const [row] = await db.query<{ challenge: string; invitation_id: string | null; user_id: string | null }>(
    `UPDATE dashboard_challenges SET used_at = $3
      WHERE id = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
     RETURNING challenge, invitation_id, user_id`,
    [id, purpose, now],
  )
  return row
}

/**
 * Passkeys for the dashboard (issue 25, point 2), with @simplewebauthn/server: made on the invitation page,
 * used to sign in. Challenges live in the database, so any instance may answer either half of a ceremony.
 */
export function dashboardPasskeys(deps: { db: Database; clock: Clock; people: DashboardPeople; rp: RelyingParty }) {
  const { db, clock, people, rp } = deps

  /** The new credential, once @simplewebauthn/server has checked the browser's answer against the challenge. */
  async function registered(response: RegistrationResponseJSON, expectedChallenge: string) {
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin(),
      expectedRPID: rp.rpId(),
    }).catch(() => ({ verified: false as const }))
    if (!verified.verified) {
      throw new ApiError('params_validation', 'The passkey could not be checked.', {
        issues: [{ field: 'response', message: 'is not a valid passkey for this dashboard' }],
      })
    }
    return verified.registrationInfo.credential
  }

  return {
    /** The options an invitation page hands the browser to make a passkey for the invited email. */
    async registrationOptions(token: string) {
      const invitation = await people.invitation(token)
      const options = await generateRegistrationOptions({
        rpName: 'Till dashboard',
        rpID: rp.rpId(),
        userName: invitation.email,
        attestationType: 'none',
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      })
      const challengeId = await storeChallenge(db, {
        challenge: options.challenge,
        purpose: 'register',
        invitationId: invitation.id,
        now: clock.now(),
      })
      return { challengeId, options }
    },

    /** The invitation page made a passkey: checked, it makes the account (without a password) and signs it in. */
    async acceptWithPasskey(token: string, challengeId: string, response: RegistrationResponseJSON, origin: Origin): Promise<SignedIn> {
      const invitation = await people.invitation(token)
      const now = clock.now()
      // Used up before it is checked, in its own commit: a wrong answer spends the challenge as a right one does.
      const challenge = await takeChallenge(db, challengeId, 'register', now)
      if (!challenge || challenge.invitation_id !== invitation.id)
        throw new ApiError('invitation_expired', 'This passkey request expired. Try again.')
      const credential = await registered(response, challenge.challenge)
      const user = await db.transaction(async (tx) => {
        const created = await joinByInvitation(tx, { invitation, passwordHash: null, origin, now, with: 'passkey' })
        await keepPasskey(tx, { credential, userId: created.id, name: 'Passkey', now })
        return created
      })
      return people.startSession(user, origin)
    },

    /** The options "Your account" hands the browser to add a passkey; the ones the member has are excluded. */
    async addOptions(user: DashboardUser) {
      const existing = await db.query<{ credential_id: string }>('SELECT credential_id FROM dashboard_passkeys WHERE user_id = $1', [
        user.id,
      ])
      const options = await generateRegistrationOptions({
        rpName: 'Till dashboard',
        rpID: rp.rpId(),
        userName: user.email,
        attestationType: 'none',
        excludeCredentials: existing.map((row) => ({ id: row.credential_id })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      })
      const challengeId = await storeChallenge(db, { challenge: options.challenge, purpose: 'register', userId: user.id, now: clock.now() })
      return { challengeId, options }
    },

    /** The member made a passkey on "Your account": checked, it is kept under the name they gave. */
    async add(user: DashboardUser, input: { challengeId: string; response: RegistrationResponseJSON; name: string }, origin: Origin) {
      const now = clock.now()
      const challenge = await takeChallenge(db, input.challengeId, 'register', now)
      if (!challenge || challenge.user_id !== user.id) throw new ApiError('invitation_expired', 'This passkey request expired. Try again.')
      const credential = await registered(input.response, challenge.challenge)
      await db.transaction(async (tx) => {
        await keepPasskey(tx, { credential, userId: user.id, name: input.name, now })
        await auditLog(tx).record({
          partnerId: user.partnerId,
          userId: user.id,
          actor: user.email,
          action: 'passkey_added',
          target: user.id,
          address: origin.address,
          details: { name: input.name },
          at: now,
        })
      })
      return { id: credential.id, name: input.name }
    },

    /** The options the sign-in page hands the browser: any passkey of this dashboard (discoverable). */
    async signInOptions() {
      const options = await generateAuthenticationOptions({ rpID: rp.rpId(), userVerification: 'preferred', allowCredentials: [] })
      const challengeId = await storeChallenge(db, { challenge: options.challenge, purpose: 'sign_in', now: clock.now() })
      return { challengeId, options }
    },

    /** A passkey answered the challenge: checked against its stored public key and counter, it signs its user in. */
    async signIn(challengeId: string, response: AuthenticationResponseJSON, origin: Origin): Promise<SignedIn> {
      const now = clock.now()
      const challenge = await takeChallenge(db, challengeId, 'sign_in', now)
      const [stored] = await db.query<{ user_id: string; public_key: Uint8Array; counter: string; transports: string[] }>(
        'SELECT user_id, public_key, counter::text AS counter, transports FROM dashboard_passkeys WHERE credential_id = $1',
        [response.id],
      )
      const user = stored && (await peopleStore(db).userById(stored.user_id))
      const verified =
        challenge && stored && user
          ? await verifyAuthenticationResponse({
              response,
              expectedChallenge: challenge.challenge,
              expectedOrigin: rp.origin(),
              expectedRPID: rp.rpId(),
              credential: {
                id: response.id,
                publicKey: new Uint8Array(stored.public_key),
                counter: Number(stored.counter),
                transports: stored.transports as never,
              },
            }).catch(() => undefined)
          : undefined
      if (!user || !verified?.verified) {
        await auditLog(db).record({
          partnerId: user?.partnerId ?? null,
          userId: user?.id ?? null,
          actor: user?.email ?? null,
          action: 'sign_in_failed',
          address: origin.address,
          details: { with: 'passkey' },
          at: now,
        })
        throw signInFailed()
      }
      await db.query('UPDATE dashboard_passkeys SET counter = $2, last_used_at = $3 WHERE credential_id = $1', [
        response.id,
        String(verified.authenticationInfo.newCounter),
        now,
      ])
      return people.startSession(user, origin)
    },
  }
}

export type DashboardPasskeys = ReturnType<typeof dashboardPasskeys>
