import type { WebhookEventType } from '@till/contract'
import type { Queryable } from '../db/port.ts'

/**
 * An outbox event as stored (the payment row at the change; for transfer.unapplied, the transfer's row and
 * its payment's, if any; for refund.*, the refund's row) and its merchant: what renders its body.
 */
export type StoredEvent = {
  event: {
    id: string
    /** `ping`: a test event asked for by someone (the dashboard's "Send test event"), about no payment. */
    type: WebhookEventType | 'ping'
    createdAt: Date
    payment: Record<string, unknown> | null
    transfer: Record<string, unknown> | null
    refund: Record<string, unknown> | null
  }
  merchant: { id: string; name: string; logo: string | null }
}

type EventRow = {
  event_id: string
  type: WebhookEventType | 'ping'
  payment: Record<string, unknown> | null
  transfer: Record<string, unknown> | null
  refund: Record<string, unknown> | null
  event_created_at: Date
  merchant_id: string
  merchant_name: string
  logo_digest: string | null
}

// Selected from `webhook_events e JOIN merchants m`, by every query that renders an event.
const EVENT_COLUMNS = `e.id AS event_id, e.type, e.payment, e.transfer, e.refund, e.created_at AS event_created_at,
                m.id AS merchant_id, m.name AS merchant_name, m.logo_digest`

const storedEvent = (row: EventRow): StoredEvent => ({
  event: {
    id: row.event_id,
    type: row.type,
    createdAt: row.event_created_at,
    payment: row.payment,
    transfer: row.transfer,
    refund: row.refund,
  },
  merchant: { id: row.merchant_id, name: row.merchant_name, logo: row.logo_digest },
})

/** A delivery claimed for one attempt, with what sending it needs. */
export type ClaimedDelivery = StoredEvent & {
  id: string
  failures: number
  /** The claim's lease: the outcome is recorded only while the delivery is still ours. */
  leaseUntil: Date
  endpoint: { id: string; url: string; secretSealed: Uint8Array; previousSecretSealed: Uint8Array | null; previousSecretUntil: Date | null }
}

export type AttemptRecord = {
  at: Date
  statusCode: number | null
  latencyMs: number
  error: string | null
  /** The request as it was sent; absent when Till could not even prepare it. */
  request?: { headers: Record<string, string>; body: string }
}

export type DeliveryStatus = 'pending' | 'held' | 'delivered' | 'failed'

/** A delivery as the deliveries list shows it. */
export type RecentDelivery = StoredEvent & {
  id: string
  status: DeliveryStatus
  nextAttemptAt: Date | null
  attempts: {
    attemptedAt: Date
    statusCode: number | null
    latencyMs: number
    error: string | null
    request: { headers: Record<string, string>; body: string } | null
  }[]
}

/** What follows an attempt: done, another try at `at`, or given up (the endpoint is then disabled). */
export type AttemptOutcome = { kind: 'delivered' } | { kind: 'retry'; at: Date } | { kind: 'failed'; reason: string }

type ClaimRow = EventRow & {
  id: string
  failures: number
  endpoint_id: string
  url: string
  secret_sealed: Uint8Array
  previous_secret_sealed: Uint8Array | null
  previous_secret_until: Date | null
}

/** The outbox side: claiming due deliveries, recording attempts, and reading them back. */
export function webhookDeliveryStore(db: Queryable) {
  return {
    /**
     * Claims up to `limit` due deliveries for one attempt each: FOR UPDATE SKIP LOCKED, and the lease written
     * as the next attempt time, so no other instance takes them until the lease runs out (a crashed sender's
     * delivery is retried then: at least once).
     */
    async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<ClaimedDelivery[]> {
      const rows = await db.query<ClaimRow>(
        `WITH due AS (
           SELECT d.id FROM webhook_deliveries d
             JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.deleted_at IS NULL AND w.status = 'enabled'
            WHERE d.status = 'pending' AND d.next_attempt_at <= $1
            ORDER BY d.next_attempt_at
            LIMIT $2
            FOR UPDATE OF d SKIP LOCKED
         ), claimed AS (
           UPDATE webhook_deliveries d SET next_attempt_at = $3 FROM due WHERE d.id = due.id
           RETURNING d.id, d.failures, d.event_id, d.endpoint_id
         )
         SELECT c.id::text AS id, c.failures, ${EVENT_COLUMNS},
                w.id AS endpoint_id, w.url, w.secret_sealed, w.previous_secret_sealed, w.previous_secret_until
           FROM claimed c
           JOIN webhook_events e ON e.id = c.event_id
           JOIN webhook_endpoints w ON w.id = c.endpoint_id
           JOIN merchants m ON m.id = e.merchant_id`,
        [now, limit, leaseUntil],
      )
      return rows.map((row) => ({
        id: row.id,
        failures: row.failures,
        leaseUntil,
        ...storedEvent(row),
        endpoint: {
          id: row.endpoint_id,
          url: row.url,
          secretSealed: row.secret_sealed,
          previousSecretSealed: row.previous_secret_sealed,
          previousSecretUntil: row.previous_secret_until,
        },
      }))
    },

    /** Records the attempt, and moves the delivery on if it is still ours; giving up disables the endpoint. */
    async record(delivery: ClaimedDelivery, attempt: AttemptRecord, outcome: AttemptOutcome): Promise<void> {
      const status = outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'failed' ? 'failed' : 'pending'
      await db.query(
        `WITH attempt AS (
           INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, latency_ms, error, request_headers, request_body)
           VALUES ($1::bigint, $2, $3, $4, $5, $10::jsonb, $11)
         ), moved AS (
           UPDATE webhook_deliveries
              SET status = $6, next_attempt_at = $7, failures = failures + (CASE WHEN $6 = 'delivered' THEN 0 ELSE 1 END)
            WHERE id = $1::bigint AND status = 'pending' AND next_attempt_at = $8
           RETURNING endpoint_id
         ), disabled AS (
           UPDATE webhook_endpoints w SET status = 'disabled', disabled_reason = $9
             FROM moved WHERE w.id = moved.endpoint_id AND $6 = 'failed' AND w.status = 'enabled'
           RETURNING w.id
         )
         -- The disabled endpoint's other deliveries wait for it to be enabled again.
         UPDATE webhook_deliveries d SET status = 'held', next_attempt_at = NULL
           FROM disabled WHERE d.endpoint_id = disabled.id AND d.status = 'pending' AND d.id <> $1::bigint`,
        [
          delivery.id,
          attempt.at,
          attempt.statusCode,
          attempt.latencyMs,
          attempt.error,
          status,
          outcome.kind === 'retry' ? outcome.at : null,
          delivery.leaseUntil,
          outcome.kind === 'failed' ? outcome.reason : null,
          attempt.request ? JSON.stringify(attempt.request.headers) : null,
          attempt.request?.body ?? null,
        ],
      )
    },

    /** Queues a delivery of the endpoint again, now, with a fresh retry schedule. */
    async redeliver(endpointId: string, deliveryId: string, now: Date): Promise<boolean> {
      if (!/^[0-9]{1,18}$/.test(deliveryId)) return false
      const rows = await db.query(
        `UPDATE webhook_deliveries SET status = 'pending', failures = 0, next_attempt_at = $3
          WHERE id = $2::bigint AND endpoint_id = $1 RETURNING id`,
        [endpointId, deliveryId, now],
      )
      return rows.length > 0
    },

    /** Queues a delivery of one of the payment's events again (its dashboard page's "Redeliver"). */
    async redeliverForPayment(paymentId: string, deliveryId: string, now: Date): Promise<boolean> {
      if (!/^[0-9]{1,18}$/.test(deliveryId)) return false
      const rows = await db.query(
        `UPDATE webhook_deliveries d SET status = 'pending', failures = 0, next_attempt_at = $3
           FROM webhook_events e
          WHERE d.id = $2::bigint AND e.id = d.event_id AND e.payment_id = $1
          RETURNING d.id`,
        [paymentId, deliveryId, now],
      )
      return rows.length > 0
    },

    /**
     * The endpoint's latest deliveries (at most `limit`), each with its event and every attempt as it was
     * sent; only those with a failed attempt, or of one event type, when asked.
     */
    async recent(endpointId: string, limit: number, filter: { failedOnly?: boolean; type?: string } = {}): Promise<RecentDelivery[]> {
      const rows = await db.query<
        EventRow & {
          id: string
          status: DeliveryStatus
          next_attempt_at: Date | null
          attempts: {
            attempted_at: string
            status_code: number | null
            latency_ms: number
            error: string | null
            request_headers: Record<string, string> | null
            request_body: string | null
          }[]
        }
      >(
        `SELECT d.id::text AS id, d.status, d.next_attempt_at, ${EVENT_COLUMNS},
                coalesce((SELECT json_agg(json_build_object('attempted_at', a.attempted_at, 'status_code', a.status_code,
                                                            'latency_ms', a.latency_ms, 'error', a.error,
                                                            'request_headers', a.request_headers, 'request_body', a.request_body)
                                          ORDER BY a.id)
                            FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]') AS attempts
           FROM webhook_deliveries d
           JOIN webhook_events e ON e.id = d.event_id
           JOIN merchants m ON m.id = e.merchant_id
          WHERE d.endpoint_id = $1
            AND ($3::boolean IS NOT TRUE OR EXISTS (
                  SELECT 1 FROM webhook_attempts f
                   WHERE f.delivery_id = d.id AND (f.status_code IS NULL OR f.status_code NOT BETWEEN 200 AND 299)))
            AND ($4::text IS NULL OR e.type = $4)
          ORDER BY d.id DESC
          LIMIT $2`,
        [endpointId, limit, filter.failedOnly ?? false, filter.type ?? null],
      )
      return rows.map((row) => ({
        id: row.id,
        status: row.status,
        nextAttemptAt: row.next_attempt_at,
        ...storedEvent(row),
        attempts: row.attempts.map((attempt) => ({
          attemptedAt: new Date(attempt.attempted_at),
          statusCode: attempt.status_code,
          latencyMs: attempt.latency_ms,
          error: attempt.error,
          request:
            attempt.request_headers && attempt.request_body !== null
              ? { headers: attempt.request_headers, body: attempt.request_body }
              : null,
        })),
      }))
    },

    /** Each endpoint's latest delivery: when it was made and how it stands. */
    async latest(endpointIds: string[]): Promise<Map<string, { at: Date; status: DeliveryStatus }>> {
      const rows = await db.query<{ endpoint_id: string; created_at: Date; status: DeliveryStatus }>(
        `SELECT DISTINCT ON (endpoint_id) endpoint_id, created_at, status FROM webhook_deliveries
          WHERE endpoint_id = ANY ($1::text[]) ORDER BY endpoint_id, id DESC`,
        [endpointIds],
      )
      return new Map(rows.map((row) => [row.endpoint_id, { at: row.created_at, status: row.status }]))
    },

    /** A test event for one endpoint, due now; the dispatchers are woken at commit. Its delivery's id. */
    async queuePing(input: { partnerId: string; merchantId: string; endpointId: string; eventId: string; now: Date }): Promise<string> {
      const [row] = await db.query<{ id: string }>(
        `WITH event AS (
           INSERT INTO webhook_events (id, partner_id, merchant_id, payment_id, type, payment, created_at)
           VALUES ($1, $2, $3, NULL, 'ping', NULL, $5)
           RETURNING id
         )
         INSERT INTO webhook_deliveries (event_id, endpoint_id, status, next_attempt_at, created_at)
         SELECT event.id, $4, 'pending', $5, $5 FROM event
         RETURNING id::text AS id`,
        [input.eventId, input.partnerId, input.merchantId, input.endpointId, input.now],
      )
      await db.query("SELECT pg_notify('till_webhooks', '')")
      return row?.id ?? ''
    },
  }
}

export type WebhookDeliveryStore = ReturnType<typeof webhookDeliveryStore>
