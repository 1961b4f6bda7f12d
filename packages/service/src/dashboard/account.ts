import type { Queryable } from '../db/port.ts'
import { ApiError } from '../errors.ts'
import { SESSION_IDLE_MS } from './sessions.ts'

/** What "Your account" shows a member of themself. Sessions are named by the start of their token's hash. */
export type AccountView = {
  passkeys: { id: string; name: string; createdAt: string; lastUsedAt: string | null }[]
  hasPassword: boolean
  sessions: { id: string; createdAt: string; lastSeenAt: string; address: string | null; current: boolean }[]
}

const SESSION_ID = "substr(encode(token_hash, 'hex'), 1, 16)"

const lastMethod = () =>
  new ApiError('last_sign_in_method', 'This is your only way to sign in: set a password or add another passkey first.')

/** SQL of "Your account" (issue 26, point 6): a member's own passkeys, password and open sessions. */
export function ownAccount(db: Queryable) {
  return {
    async view(userId: string, currentToken: Buffer, now: Date): Promise<AccountView> {
      const [passkeys, [user], sessions] = await Promise.all([
        db.query<{ credential_id: string; name: string; created_at: Date; last_used_at: Date | null }>(
          'SELECT credential_id, name, created_at, last_used_at FROM dashboard_passkeys WHERE user_id = $1 ORDER BY created_at, credential_id',
          [userId],
        ),
        db.query<{ has_password: boolean }>('SELECT password_hash IS NOT NULL AS has_password FROM dashboard_users WHERE id = $1', [
          userId,
        ]),
        db.query<{ id: string; created_at: Date; last_seen_at: Date; address: string | null; current: boolean }>(
          `SELECT ${SESSION_ID} AS id, created_at, last_seen_at, address, token_hash = $4 AS current FROM dashboard_sessions
            WHERE user_id = $1 AND ended_at IS NULL AND expires_at > $2 AND last_seen_at > $3
            ORDER BY last_seen_at DESC`,
          [userId, now, new Date(now.getTime() - SESSION_IDLE_MS), currentToken],
        ),
      ])
      return {
        passkeys: passkeys.map((row) => ({
          id: row.credential_id,
          name: row.name,
          createdAt: row.created_at.toISOString(),
          lastUsedAt: row.last_used_at?.toISOString() ?? null,
        })),
        hasPassword: user?.has_password ?? false,
        sessions: sessions.map((row) => ({
          id: row.id,
          createdAt: row.created_at.toISOString(),
          lastSeenAt: row.last_seen_at.toISOString(),
          address: row.address,
          current: row.current,
        })),
      }
    },

    async renamePasskey(userId: string, id: string, name: string): Promise<boolean> {
      const rows = await db.query('UPDATE dashboard_passkeys SET name = $3 WHERE user_id = $1 AND credential_id = $2 RETURNING 1', [
        userId,
        id,
        name,
      ])
      return rows.length === 1
    },

    /** Removes one of the member's passkeys, unless it is their only way to sign in. Run in a transaction. */
    async removePasskey(userId: string, id: string): Promise<boolean> {
      const [left] = await db.query<{ has_password: boolean; others: string }>(
        `SELECT u.password_hash IS NOT NULL AS has_password,
                (SELECT count(*) FROM dashboard_passkeys k WHERE k.user_id = u.id AND k.credential_id <> $2)::text AS others
           FROM dashboard_users u WHERE u.id = $1 FOR UPDATE`,
        [userId, id],
      )
      const removed = await db.query('DELETE FROM dashboard_passkeys WHERE user_id = $1 AND credential_id = $2 RETURNING 1', [userId, id])
      if (removed.length === 0) return false
      if (!left?.has_password && left?.others === '0') throw lastMethod()
      return true
    },

    async setPassword(userId: string, passwordHash: string): Promise<void> {
      await db.query('UPDATE dashboard_users SET password_hash = $2 WHERE id = $1', [userId, passwordHash])
    },

    async storedPassword(userId: string): Promise<string | null> {
      const [row] = await db.query<{ password_hash: string | null }>('SELECT password_hash FROM dashboard_users WHERE id = $1', [userId])
      return row?.password_hash ?? null
    },

    async endSession(userId: string, id: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        `UPDATE dashboard_sessions SET ended_at = $3 WHERE user_id = $1 AND ${SESSION_ID} = $2 AND ended_at IS NULL RETURNING 1`,
        [userId, id, now],
      )
      return rows.length > 0
    },
  }
}
