import { createHash } from 'node:crypto'
import type { Database, Queryable } from '../db/port.ts'
import type { Clock } from '../core/clock.ts'
import { IDEMPOTENCY_KEY_HEADER } from '@till/contract'
import { ApiError } from '../errors.ts'

const MAX_IDEMPOTENCY_KEY_LENGTH = 255

/** The Idempotency-Key header of a creating request: required, 1 to 255 characters. */
export function idempotencyKeyOf(value: string | undefined): string {
  if (value === undefined) {
    throw new ApiError(
      'missing_idempotency_key',
      `The ${IDEMPOTENCY_KEY_HEADER} header is required: a unique value per creation request.`,
      {
        issues: [{ field: IDEMPOTENCY_KEY_HEADER, message: 'Required header' }],
      },
    )
  }
  if (value.length === 0 || value.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    const message = value.length === 0 ? 'must not be empty' : `must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters long`
    throw new ApiError(
      'invalid_idempotency_key',
      `The ${IDEMPOTENCY_KEY_HEADER} header ${message}: send a unique value of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`,
      { issues: [{ field: IDEMPOTENCY_KEY_HEADER, message }] },
    )
  }
  return value
}

/** How long a key answers with its first response (issue 12: 24 hours per partner). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000

export type Answer<T> = { status: number; body: T }
export type IdempotentAnswer<T> = Answer<T> & { replayed: boolean }

type KeyRow = { operation: string; request_hash: Uint8Array; status: number; response: unknown }

/** JSON with sorted keys, so two bodies that parse to the same request hash the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined)
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/**
 * Idempotency-Key for POST /v1/merchants (docs/decisions/0020). The first successful answer per partner
 * and key is kept for 24 hours with a hash of the parsed request: the same request gets it again, another
 * one gets 409 idempotency_conflict. The key row is written in the transaction that does the work, so a
 * concurrent request with the same key waits on it, then replays it; work that fails rolls the key back
 * with it, and the request may be corrected and retried under the same key.
 */
export function idempotencyKeys(deps: { db: Database; clock: Clock }) {
  const hashOf = (operation: string, request: unknown) =>
    createHash('sha256')
      .update(`${operation}\n${canonical(request)}`)
      .digest()

  function replay<T>(row: KeyRow, operation: string, hash: Buffer): IdempotentAnswer<T> {
    if (row.operation !== operation || !hash.equals(Buffer.from(row.request_hash))) {
      throw new ApiError('idempotency_conflict', 'This Idempotency-Key was already used with a different request; use a new key.')
    }
    return { status: row.status, body: row.response as T, replayed: true }
  }

  async function find(db: Queryable, partnerId: string, key: string, cutoff: Date): Promise<KeyRow | undefined> {
    const [row] = await db.query<KeyRow>(
      `SELECT operation, request_hash, status, response FROM idempotency_keys
        WHERE partner_id = $1 AND key = $2 AND created_at > $3`,
      [partnerId, key, cutoff],
    )
    return row
  }

  return {
    /**
     * `prepare` runs outside any transaction and only when the key is new (a replay must not fetch a logo
     * again); `work` runs in the key's transaction.
     */
    async run<P, T>(input: {
      partnerId: string
      key: string
      operation: string
      request: unknown
      prepare: () => Promise<P>
      work: (tx: Queryable, prepared: P) => Promise<Answer<T>>
    }): Promise<IdempotentAnswer<T>> {
      const { partnerId, key, operation } = input
      const hash = hashOf(operation, input.request)
      const now = deps.clock.now()
      const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_MS)
      const earlier = await find(deps.db, partnerId, key, cutoff)
      if (earlier) return replay(earlier, operation, hash)
      const prepared = await input.prepare()
      return deps.db.transaction(async (tx) => {
        await tx.query('DELETE FROM idempotency_keys WHERE partner_id = $1 AND created_at <= $2 AND key <> $3', [partnerId, cutoff, key])
        // Waits for a concurrent holder of the key to commit or roll back; an expired row is taken over.
        const claimed = await tx.query(
          `INSERT INTO idempotency_keys (partner_id, key, operation, request_hash, status, response, created_at)
           VALUES ($1, $2, $3, $4, 0, 'null', $5)
           ON CONFLICT (partner_id, key) DO UPDATE
             SET operation = EXCLUDED.operation, request_hash = EXCLUDED.request_hash, status = 0, response = 'null',
                 created_at = EXCLUDED.created_at
             WHERE idempotency_keys.created_at <= $6
           RETURNING 1`,
          [partnerId, key, operation, hash, now, cutoff],
        )
        if (claimed.length === 0) {
          const winner = await find(tx, partnerId, key, cutoff)
          if (!winner) throw new Error('idempotency key neither claimed nor found')
          return replay<T>(winner, operation, hash)
        }
        const answer = await input.work(tx, prepared)
        await tx.query('UPDATE idempotency_keys SET status = $3, response = $4 WHERE partner_id = $1 AND key = $2', [
          partnerId,
          key,
          answer.status,
          JSON.stringify(answer.body),
        ])
        return { ...answer, replayed: false }
      })
    },
  }
}

export type IdempotencyKeys = ReturnType<typeof idempotencyKeys>
