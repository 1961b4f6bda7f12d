import type { WebhookEventType } from '@till/contract'
import type { Queryable } from '../db/port.ts'
import { newWebhookEndpointId } from '../core/ids.ts'

export type EndpointRecord = {
  id: string
  partnerId: string
  merchantId: string
  url: string
  events: WebhookEventType[]
  status: 'enabled' | 'disabled'
  disabledReason: string | null
  createdAt: Date
  secretSealed: Uint8Array
  previousSecretSealed: Uint8Array | null
  previousSecretUntil: Date | null
}

type EndpointRow = {
  id: string
  partner_id: string
  merchant_id: string
  url: string
  events: WebhookEventType[]
  status: 'enabled' | 'disabled'
  disabled_reason: string | null
  created_at: Date
  secret_sealed: Uint8Array
  previous_secret_sealed: Uint8Array | null
  previous_secret_until: Date | null
}

const ENDPOINT_COLUMNS = `id, partner_id, merchant_id, url, events, status, disabled_reason, created_at, secret_sealed,
  previous_secret_sealed, previous_secret_until`

const toEndpoint = (row: EndpointRow): EndpointRecord => ({
  id: row.id,
  partnerId: row.partner_id,
  merchantId: row.merchant_id,
  url: row.url,
  events: row.events,
  status: row.status,
  disabledReason: row.disabled_reason,
  createdAt: row.created_at,
  secretSealed: row.secret_sealed,
  previousSecretSealed: row.previous_secret_sealed,
  previousSecretUntil: row.previous_secret_until,
})

/** A merchant's endpoints: every query is scoped to the merchant, so one merchant never reaches another's. */
export function webhookEndpointStore(db: Queryable) {
  return {
    async create(input: {
      partnerId: string
      merchantId: string
      url: string
      events: readonly WebhookEventType[]
      secretSealed: Buffer
      now: Date
    }) {
      const [row] = await db.query<EndpointRow>(
        `INSERT INTO webhook_endpoints (id, partner_id, merchant_id, url, events, secret_sealed, created_at)
         VALUES ($1, $2, $3, $4, $5::text[], $6, $7) RETURNING ${ENDPOINT_COLUMNS}`,
        [newWebhookEndpointId(), input.partnerId, input.merchantId, input.url, input.events, input.secretSealed, input.now],
      )
      if (!row) throw new Error('INSERT … RETURNING gave no row')
      return toEndpoint(row)
    },

    async list(merchantId: string): Promise<EndpointRecord[]> {
      const rows = await db.query<EndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE merchant_id = $1 AND deleted_at IS NULL
          ORDER BY created_at DESC, id DESC`,
        [merchantId],
      )
      return rows.map(toEndpoint)
    },

    async find(merchantId: string, id: string): Promise<EndpointRecord | undefined> {
      const [row] = await db.query<EndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL`,
        [id, merchantId],
      )
      return row && toEndpoint(row)
    },

    /**
     * Soft delete, in one statement: its deliveries not yet sent end as failed, and the dispatcher claims
     * nothing of a deleted endpoint (a delivery a racing transaction adds is never sent either).
     */
    async delete(merchantId: string, id: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        `WITH deleted AS (
           UPDATE webhook_endpoints SET deleted_at = $3 WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL RETURNING id
         ), dropped AS (
           UPDATE webhook_deliveries d SET status = 'failed', next_attempt_at = NULL
             FROM deleted WHERE d.endpoint_id = deleted.id AND d.status IN ('pending', 'held')
         )
         SELECT id FROM deleted`,
        [id, merchantId, now],
      )
      return rows.length > 0
    },

    /** The new secret signs from now on; the current one also signs until `graceUntil`. */
    async rotate(input: { merchantId: string; id: string; secretSealed: Buffer; graceUntil: Date }) {
      const [row] = await db.query<EndpointRow>(
        `UPDATE webhook_endpoints
            SET previous_secret_sealed = secret_sealed, previous_secret_until = $4, secret_sealed = $3
          WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL
          RETURNING ${ENDPOINT_COLUMNS}`,
        [input.id, input.merchantId, input.secretSealed, input.graceUntil],
      )
      return row && toEndpoint(row)
    },

    /** Enables an endpoint, and sends what was held for it while it was disabled. */
    async disable(input: { merchantId: string; id: string; reason: string }) {
      const [row] = await db.query<EndpointRow>(
        `WITH disabled AS (
           UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = $3
            WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL
           RETURNING ${ENDPOINT_COLUMNS}
         ), held AS (
           UPDATE webhook_deliveries d SET status = 'held', next_attempt_at = NULL
             FROM disabled WHERE d.endpoint_id = disabled.id AND d.status = 'pending'
         )
         SELECT * FROM disabled`,
        [input.id, input.merchantId, input.reason],
      )
      return row && toEndpoint(row)
    },

    async enable(input: { merchantId: string; id: string; now: Date }) {
      const [row] = await db.query<EndpointRow>(
        `WITH enabled AS (
           UPDATE webhook_endpoints SET status = 'enabled', disabled_reason = NULL
            WHERE id = $1 AND merchant_id = $2 AND deleted_at IS NULL
           RETURNING ${ENDPOINT_COLUMNS}
         ), released AS (
           UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = $3
             FROM enabled WHERE d.endpoint_id = enabled.id AND d.status = 'held'
         )
         SELECT * FROM enabled`,
        [input.id, input.merchantId, input.now],
      )
      return row && toEndpoint(row)
    },
  }
}

export type WebhookEndpointStore = ReturnType<typeof webhookEndpointStore>
