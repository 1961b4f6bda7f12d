import type { Queryable } from '../db/port.ts'

/** How long each kind of row is kept (issue 27, point 4); every one documented in docs/operating.md. */
export type RetentionPolicy = {
  /** Webhook events, with their deliveries and attempts, once none of their deliveries is still due. */
  webhookDays: number
  /** Audit log entries. */
  auditDays: number
}

export const DEFAULT_RETENTION: RetentionPolicy = { webhookDays: 30, auditDays: 400 }

const DAY_MS = 24 * 60 * 60 * 1000
// An idempotency key answers replays for a day (spec); ended sessions, used or expired invitations and
// passkey challenges are kept a day more for whoever looks into a sign-in.
const IDEMPOTENCY_MS = DAY_MS
const SIGN_IN_LEFTOVERS_MS = DAY_MS

/** One statement per batch: small, so the hot path never waits long on its locks. */
export const PRUNE_BATCH = 500

type Step = { name: string; sql: string; before: (now: Date, policy: RetentionPolicy) => Date }

// Each deletes at most $2 rows older than $1, picked through an index, oldest first.
const STEPS: Step[] = [
  {
    name: 'webhook events',
    // Their deliveries and attempts go in the same statement; an event with a delivery still due stays.
    sql: `WITH old AS (
            SELECT e.id FROM webhook_events e
             WHERE e.created_at < $1
               AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status IN ('pending', 'held'))
             ORDER BY e.created_at LIMIT $2 FOR UPDATE SKIP LOCKED
          ), attempts AS (
            DELETE FROM webhook_attempts a USING webhook_deliveries d, old
             WHERE a.delivery_id = d.id AND d.event_id = old.id
          ), deliveries AS (
            -- Re-checked on the row as it is now: a delivery redelivered meanwhile is pending, stays, and its
            -- event's delete then fails the whole statement (its foreign key), so nothing of it goes.
            DELETE FROM webhook_deliveries d USING old WHERE d.event_id = old.id AND d.status IN ('delivered', 'failed')
          )
          DELETE FROM webhook_events e USING old WHERE e.id = old.id`,
    before: (now, policy) => new Date(now.getTime() - policy.webhookDays * DAY_MS),
  },
  {
    name: 'idempotency keys',
    sql: `DELETE FROM idempotency_keys k USING (
            SELECT partner_id, key FROM idempotency_keys WHERE created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED
          ) old WHERE k.partner_id = old.partner_id AND k.key = old.key`,
    before: (now) => new Date(now.getTime() - IDEMPOTENCY_MS),
  },
  {
    // Ended or not, a session is kept until a day past its 7 days: the end of a signed-out one is then kept
    // at most 8 days.
    name: 'dashboard sessions',
    sql: `DELETE FROM dashboard_sessions s USING (
            SELECT token_hash FROM dashboard_sessions WHERE expires_at < $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED
          ) old WHERE s.token_hash = old.token_hash`,
    before: (now) => new Date(now.getTime() - SIGN_IN_LEFTOVERS_MS),
  },
  {
    name: 'passkey challenges',
    sql: `DELETE FROM dashboard_challenges c USING (
            SELECT id FROM dashboard_challenges WHERE expires_at < $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED
          ) old WHERE c.id = old.id`,
    before: (now) => new Date(now.getTime() - SIGN_IN_LEFTOVERS_MS),
  },
  {
    name: 'dashboard invitations',
    // Used or not, an invitation past its 24 hours opens nothing. One a challenge still names waits for it.
    sql: `DELETE FROM dashboard_invitations i USING (
            SELECT id FROM dashboard_invitations v
             WHERE v.expires_at < $1 AND NOT EXISTS (SELECT 1 FROM dashboard_challenges c WHERE c.invitation_id = v.id)
             ORDER BY v.expires_at LIMIT $2 FOR UPDATE OF v SKIP LOCKED
          ) old WHERE i.id = old.id`,
    before: (now) => new Date(now.getTime() - SIGN_IN_LEFTOVERS_MS),
  },
  {
    name: 'audit log',
    sql: `DELETE FROM audit_log l USING (SELECT id FROM audit_log WHERE at < $1 ORDER BY at LIMIT $2 FOR UPDATE SKIP LOCKED) old WHERE l.id = old.id`,
    before: (now, policy) => new Date(now.getTime() - policy.auditDays * DAY_MS),
  },
]

/**
 * Prunes everything past its retention, a batch at a time until a batch comes back short; each batch is its
 * own statement and commit. Several instances may prune at once: each batch skips the rows another holds, so
 * they share the work and neither waits. Counts what went, by kind.
 */
export async function pruneOnce(db: Queryable, now: Date, policy: RetentionPolicy, batch = PRUNE_BATCH): Promise<Record<string, number>> {
  const pruned: Record<string, number> = {}
  for (const step of STEPS) {
    let total = 0
    for (;;) {
      const rows = await db.query(`${step.sql} RETURNING 1`, [step.before(now, policy), batch])
      total += rows.length
      if (rows.length < batch) break
    }
    pruned[step.name] = total
  }
  return pruned
}
