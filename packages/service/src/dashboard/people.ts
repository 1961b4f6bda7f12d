import { createHash } from 'node:crypto'
import type { Queryable } from '../db/port.ts'
import { randomToken } from '../core/ids.ts'

/** What a dashboard user may do (issue 25): owners everything; admins all but the team; viewers read. */
export const DASHBOARD_ROLES = ['owner', 'admin', 'viewer'] as const
export type DashboardRole = (typeof DASHBOARD_ROLES)[number]

export type DashboardUser = {
  id: string
  partnerId: string
  /** Limited to this merchant's payments; null for the whole partner. */
  merchantId: string | null
  email: string
  role: DashboardRole
  passwordHash: string | null
  createdAt: Date
}

export type Invitation = {
  id: string
  partnerId: string
  merchantId: string | null
  email: string
  role: DashboardRole
  createdAt: Date
  expiresAt: Date
  usedAt: Date | null
}

/** Tokens travel in links and cookies; only their SHA-256 is stored. */
export const tokenHash = (token: string): Buffer => createHash('sha256').update(token).digest()
export const newUserId = () => `usr_${randomToken(16)}`
export const newInvitationId = () => `inv_${randomToken(16)}`
/** 160 bits: what a link or a cookie carries. */
export const newSecretToken = () => randomToken(32)

type UserRow = {
  id: string
  partner_id: string
  merchant_id: string | null
  email: string
  role: DashboardRole
  password_hash: string | null
  created_at: Date
}
const toUser = (row: UserRow): DashboardUser => ({
  id: row.id,
  partnerId: row.partner_id,
  merchantId: row.merchant_id,
  email: row.email,
  role: row.role,
  passwordHash: row.password_hash,
  createdAt: row.created_at,
})

type InvitationRow = {
  id: string
  partner_id: string
  merchant_id: string | null
  email: string
  role: DashboardRole
  created_at: Date
  expires_at: Date
  used_at: Date | null
}
const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  partnerId: row.partner_id,
  merchantId: row.merchant_id,
  email: row.email,
  role: row.role,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
})

const USER_COLUMNS = 'id, partner_id, merchant_id, email, role, password_hash, created_at'
const INVITATION_COLUMNS = 'id, partner_id, merchant_id, email, role, created_at, expires_at, used_at'

/** SQL for the dashboard's users and their invitations (migrations/0019_dashboard_people.sql). */
export function peopleStore(db: Queryable) {
  return {
    async invite(input: Omit<Invitation, 'usedAt'> & { token: string; invitedBy: string | null }): Promise<void> {
      await db.query(
        `INSERT INTO dashboard_invitations (id, token_hash, partner_id, merchant_id, email, role, invited_by, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          input.id,
          tokenHash(input.token),
          input.partnerId,
          input.merchantId,
          input.email,
          input.role,
          input.invitedBy,
          input.createdAt,
          input.expiresAt,
        ],
      )
    },

    async invitationByToken(token: string): Promise<Invitation | undefined> {
      const [row] = await db.query<InvitationRow>(`SELECT ${INVITATION_COLUMNS} FROM dashboard_invitations WHERE token_hash = $1`, [
        tokenHash(token),
      ])
      return row && toInvitation(row)
    },

    /** Marks the invitation used, if it still can be: of two concurrent acceptances, one wins. */
    async useInvitation(id: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        'UPDATE dashboard_invitations SET used_at = $2 WHERE id = $1 AND used_at IS NULL AND expires_at > $2 RETURNING id',
        [id, now],
      )
      return rows.length === 1
    },

    async createUser(user: DashboardUser): Promise<DashboardUser | undefined> {
      const [row] = await db.query<UserRow>(
        `INSERT INTO dashboard_users (id, partner_id, merchant_id, email, role, password_hash, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         -- A removed member invited again comes back as the invitation says: removal took their passkeys and
         -- sessions, and the new password replaces the old.
         ON CONFLICT (email) DO UPDATE SET partner_id = EXCLUDED.partner_id, merchant_id = EXCLUDED.merchant_id,
           role = EXCLUDED.role, password_hash = EXCLUDED.password_hash, removed_at = NULL, last_sign_in_at = NULL
           WHERE dashboard_users.removed_at IS NOT NULL
         RETURNING ${USER_COLUMNS}`,
        [user.id, user.partnerId, user.merchantId, user.email, user.role, user.passwordHash, user.createdAt],
      )
      return row && toUser(row)
    },

    async userByEmail(email: string): Promise<DashboardUser | undefined> {
      const [row] = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM dashboard_users WHERE email = $1 AND removed_at IS NULL`, [
        email.toLowerCase(),
      ])
      return row && toUser(row)
    },

    async userById(id: string): Promise<DashboardUser | undefined> {
      const [row] = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM dashboard_users WHERE id = $1 AND removed_at IS NULL`, [id])
      return row && toUser(row)
    },
  }
}

export type PeopleStore = ReturnType<typeof peopleStore>
