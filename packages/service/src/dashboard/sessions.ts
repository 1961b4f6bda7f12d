import type { Queryable } from '../db/port.ts'
import { newSecretToken, tokenHash } from './people.ts'

/** A session ends after 12 hours without a request, and 7 days after sign-in whatever (issue 25, point 3). */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000
export const SESSION_MAX_MS = 7 * 24 * 60 * 60 * 1000
// A request refreshes last_seen_at at most this often: not a write per request.
const TOUCH_EVERY_MS = 60 * 1000

/**
 * The session cookie. `__Host-`: only over HTTPS, only from this host, for every path; HttpOnly: no script,
 * the dashboard's own included, can read it; SameSite=Lax: other sites' forms do not carry it.
 */
export const SESSION_COOKIE = '__Host-till_session'

export type Session = { userId: string; csrfToken: string; createdAt: Date; lastSeenAt: Date; expiresAt: Date }

type SessionRow = { user_id: string; csrf_token: string; created_at: Date; last_seen_at: Date; expires_at: Date }

export function sessionCookie(token: string, maxAgeMs: number): string {
  return `${SESSION_COOKIE}=${token}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=${Math.floor(maxAgeMs / 1000)}`
}
export const endedSessionCookie = `${SESSION_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`

/** The session token a request's Cookie header carries, if any. */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === SESSION_COOKIE) return value.join('=') || undefined
  }
  return undefined
}

/** Server-side sessions in PostgreSQL: a row per sign-in, found by the hash of the cookie's token. */
export function sessionStore(db: Queryable) {
  return {
    async start(input: { userId: string; now: Date; address: string | null }): Promise<{ token: string; session: Session }> {
      const token = newSecretToken()
      const session: Session = {
        userId: input.userId,
        csrfToken: newSecretToken(),
        createdAt: input.now,
        lastSeenAt: input.now,
        expiresAt: new Date(input.now.getTime() + SESSION_MAX_MS),
      }
      await db.query(
        `INSERT INTO dashboard_sessions (token_hash, user_id, csrf_token, created_at, last_seen_at, expires_at, address)
         VALUES ($1, $2, $3, $4, $4, $5, $6)`,
        [tokenHash(token), session.userId, session.csrfToken, input.now, session.expiresAt, input.address],
      )
      return { token, session }
    },

    /** The session a token names while it lasts: not ended, not idle 12 hours, not past its 7 days. */
    async find(token: string, now: Date): Promise<Session | undefined> {
      const [row] = await db.query<SessionRow>(
        `SELECT user_id, csrf_token, created_at, last_seen_at, expires_at FROM dashboard_sessions
          WHERE token_hash = $1 AND ended_at IS NULL AND expires_at > $2 AND last_seen_at > $3`,
        [tokenHash(token), now, new Date(now.getTime() - SESSION_IDLE_MS)],
      )
      if (!row) return undefined
      const session = {
        userId: row.user_id,
        csrfToken: row.csrf_token,
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at,
        expiresAt: row.expires_at,
      }
      if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
        await db.query('UPDATE dashboard_sessions SET last_seen_at = $2 WHERE token_hash = $1', [tokenHash(token), now])
        session.lastSeenAt = now
      }
      return session
    },

    async end(token: string, now: Date): Promise<void> {
      await db.query('UPDATE dashboard_sessions SET ended_at = $2 WHERE token_hash = $1 AND ended_at IS NULL', [tokenHash(token), now])
    },

    /** "Sign out everywhere", or a member removed: every open session of the user ends now. */
    async endAll(userId: string, now: Date): Promise<number> {
      const rows = await db.query('UPDATE dashboard_sessions SET ended_at = $2 WHERE user_id = $1 AND ended_at IS NULL RETURNING 1', [
        userId,
        now,
      ])
      return rows.length
    },
  }
}

export type SessionStore = ReturnType<typeof sessionStore>
