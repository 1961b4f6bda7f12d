import type { Queryable } from '../db/port.ts'
import { ApiError } from '../errors.ts'
import type { DashboardRole } from './people.ts'

/** A member as the Team page lists them. */
export type Member = {
  id: string
  email: string
  role: DashboardRole
  merchant: { id: string; name: string } | null
  passkeys: { id: string; name: string; createdAt: string; lastUsedAt: string | null }[]
  hasPassword: boolean
  lastSignInAt: string | null
  status: 'active' | 'removed'
}

/** An invitation not yet used. */
export type PendingInvitation = { id: string; email: string; role: DashboardRole; merchantId: string | null; expiresAt: string }

const lastOwner = () =>
  new ApiError('last_owner', 'The partner needs an owner: make someone else an owner first.', {
    issues: [{ field: 'role', message: 'the last owner cannot be removed or given another role' }],
  })

/**
 * SQL of the Team page (issue 26, point 5): the partner's members with their passkeys and last sign-in, its
 * open invitations, and the changes owners make. A change that could leave the partner without an owner
 * locks its owners' rows first, so two owners demoting each other at once cannot both succeed.
 */
export function teamStore(db: Queryable) {
  /** Refuses when `userId` is the partner's only active owner; holds its owners' rows until the commit. */
  async function keepAnOwner(partnerId: string, userId: string): Promise<void> {
    const owners = await db.query<{ id: string }>(
      `SELECT id FROM dashboard_users WHERE partner_id = $1 AND role = 'owner' AND removed_at IS NULL ORDER BY id FOR UPDATE`,
      [partnerId],
    )
    if (owners.length === 1 && owners[0]?.id === userId) throw lastOwner()
  }

  return {
    async members(partnerId: string, now: Date): Promise<{ members: Member[]; invitations: PendingInvitation[] }> {
      const [members, invitations] = await Promise.all([
        db.query<{
          id: string
          email: string
          role: DashboardRole
          merchant_id: string | null
          merchant_name: string | null
          passkeys: Member['passkeys']
          has_password: boolean
          last_sign_in_at: Date | null
          removed_at: Date | null
        }>(
          `SELECT u.id, u.email, u.role, u.merchant_id, m.name AS merchant_name, u.password_hash IS NOT NULL AS has_password,
                  u.last_sign_in_at, u.removed_at,
                  coalesce((SELECT json_agg(json_build_object('id', k.credential_id, 'name', k.name,
                                                              'createdAt', k.created_at, 'lastUsedAt', k.last_used_at)
                                            ORDER BY k.created_at)
                              FROM dashboard_passkeys k WHERE k.user_id = u.id), '[]') AS passkeys
             FROM dashboard_users u LEFT JOIN merchants m ON m.id = u.merchant_id
            WHERE u.partner_id = $1
            ORDER BY u.removed_at IS NOT NULL, u.created_at, u.id`,
          [partnerId],
        ),
        db.query<{ id: string; email: string; role: DashboardRole; merchant_id: string | null; expires_at: Date }>(
          `SELECT id, email, role, merchant_id, expires_at FROM dashboard_invitations
            WHERE partner_id = $1 AND used_at IS NULL AND expires_at > $2 ORDER BY created_at DESC`,
          [partnerId, now],
        ),
      ])
      return {
        members: members.map((row) => ({
          id: row.id,
          email: row.email,
          role: row.role,
          merchant: row.merchant_id ? { id: row.merchant_id, name: row.merchant_name ?? row.merchant_id } : null,
          passkeys: row.passkeys.map((k) => ({
            ...k,
            createdAt: new Date(k.createdAt).toISOString(),
            lastUsedAt: k.lastUsedAt && new Date(k.lastUsedAt).toISOString(),
          })),
          hasPassword: row.has_password,
          lastSignInAt: row.last_sign_in_at?.toISOString() ?? null,
          status: row.removed_at ? 'removed' : 'active',
        })),
        invitations: invitations.map((row) => ({
          id: row.id,
          email: row.email,
          role: row.role,
          merchantId: row.merchant_id,
          expiresAt: row.expires_at.toISOString(),
        })),
      }
    },

    /** The member's role before the change; undefined when the partner has no such active member. Run in a transaction. */
    async changeRole(partnerId: string, userId: string, role: DashboardRole): Promise<DashboardRole | undefined> {
      if (role !== 'owner') await keepAnOwner(partnerId, userId)
      const [row] = await db.query<{ before: DashboardRole }>(
        `UPDATE dashboard_users u SET role = $3 FROM dashboard_users old
          WHERE u.id = $2 AND u.partner_id = $1 AND u.removed_at IS NULL AND old.id = u.id
          RETURNING old.role AS before`,
        [partnerId, userId, role],
      )
      return row?.before
    },

    /**
     * Removes an active member: their sessions end and their passkeys are deleted now, in the same commit.
     * False when the partner has no such active member. Run in a transaction.
     */
    async remove(partnerId: string, userId: string, now: Date): Promise<boolean> {
      await keepAnOwner(partnerId, userId)
      const removed = await db.query(
        'UPDATE dashboard_users SET removed_at = $3 WHERE id = $2 AND partner_id = $1 AND removed_at IS NULL RETURNING id',
        [partnerId, userId, now],
      )
      if (removed.length === 0) return false
      await db.query('UPDATE dashboard_sessions SET ended_at = $2 WHERE user_id = $1 AND ended_at IS NULL', [userId, now])
      await db.query('DELETE FROM dashboard_passkeys WHERE user_id = $1', [userId])
      return true
    },

    /** Deletes one passkey of an active member of the partner; false when there is no such passkey. */
    async revokePasskey(partnerId: string, userId: string, credentialId: string): Promise<boolean> {
      const rows = await db.query(
        `DELETE FROM dashboard_passkeys k USING dashboard_users u
          WHERE k.credential_id = $3 AND k.user_id = $2 AND u.id = k.user_id AND u.partner_id = $1
          RETURNING k.credential_id`,
        [partnerId, userId, credentialId],
      )
      return rows.length === 1
    },

    async signedIn(userId: string, now: Date): Promise<void> {
      await db.query('UPDATE dashboard_users SET last_sign_in_at = $2 WHERE id = $1', [userId, now])
    },
  }
}
