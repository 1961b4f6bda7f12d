import type { Queryable } from '../db/port.ts'

/** What the audit log records (issue 25, point 4): people's sign-ins, and every change of money, keys and webhooks. */
export type AuditAction =
  | 'sign_in'
  | 'sign_in_failed'
  | 'sign_out'
  | 'sign_out_everywhere'
  | 'invitation_created'
  | 'invitation_accepted'
  | 'payment_cancelled'
  | 'refund_created'
  | 'webhook_redelivered'
  | 'api_key_created'
  | 'api_keys_revoked'
  | 'api_key_revoked'
  | 'member_role_changed'
  | 'member_removed'
  | 'passkey_revoked'
  | 'merchant_created'
  | 'merchant_updated'
  | 'passkey_added'
  | 'passkey_renamed'
  | 'passkey_removed'
  | 'password_set'
  | 'password_changed'
  | 'session_ended'
  | 'webhook_endpoint_created'
  | 'webhook_endpoint_deleted'
  | 'webhook_secret_rotated'
  | 'webhook_endpoint_enabled'
  | 'webhook_endpoint_disabled'
  | 'webhook_test_sent'

export type AuditEntry = {
  partnerId: string | null
  userId: string | null
  /**
   * The email tried, for a failed sign-in; the user's email for a dashboard user; `API key <id>` for a change
   * made through the API; `command line` for one made with `till`.
   */
  actor: string | null
  action: AuditAction
  target?: string | null
  address: string | null
  details?: Record<string, unknown>
  at: Date
}

export type AuditRecord = AuditEntry & { id: string }

export function auditLog(db: Queryable) {
  return {
    async record(entry: AuditEntry): Promise<void> {
      await db.query(
        `INSERT INTO audit_log (partner_id, user_id, actor, action, target, address, details, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          entry.partnerId,
          entry.userId,
          entry.actor,
          entry.action,
          entry.target ?? null,
          entry.address,
          entry.details ? JSON.stringify(entry.details) : null,
          entry.at,
        ],
      )
    },

    /** Failed sign-ins since `since`, for this account and from this address: what the sign-in limits count. */
    async failedSignIns(input: { actor: string; address: string | null; since: Date }): Promise<{ account: number; address: number }> {
      const [row] = await db.query<{ account: string; address: string }>(
        `SELECT (SELECT count(*) FROM audit_log WHERE action = 'sign_in_failed' AND actor = $1 AND at > $3)::text AS account,
                (SELECT count(*) FROM audit_log WHERE action = 'sign_in_failed' AND address = $2 AND at > $3)::text AS address`,
        [input.actor, input.address, input.since],
      )
      return { account: Number(row?.account ?? 0), address: Number(row?.address ?? 0) }
    },

    /** A partner's log, newest first, `limit` at a time from before `before`. */
    async page(partnerId: string, input: { limit: number; before?: { at: Date; id: string } }): Promise<AuditRecord[]> {
      const rows = await db.query<{
        id: string
        partner_id: string | null
        user_id: string | null
        actor: string | null
        action: AuditAction
        target: string | null
        address: string | null
        details: Record<string, unknown> | null
        at: Date
      }>(
        `SELECT id::text AS id, partner_id, user_id, actor, action, target, address, details, at FROM audit_log
          WHERE partner_id = $1 AND ($3::timestamptz IS NULL OR (at, id) < ($3::timestamptz, $4::bigint))
          ORDER BY at DESC, id DESC LIMIT $2`,
        [partnerId, input.limit, input.before?.at ?? null, input.before?.id ?? null],
      )
      return rows.map((row) => ({
        id: row.id,
        partnerId: row.partner_id,
        userId: row.user_id,
        actor: row.actor,
        action: row.action,
        target: row.target,
        address: row.address,
        ...(row.details ? { details: row.details } : {}),
        at: row.at,
      }))
    },
  }
}

export type AuditLog = ReturnType<typeof auditLog>
