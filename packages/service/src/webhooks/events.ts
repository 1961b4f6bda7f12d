import type { WebhookEvent, WebhookEventType } from '@till/contract'
import type { LogoUrl } from '../logos/index.ts'
import { listingPayment, type PaymentRow, toPaymentRecord } from '../payments/index.ts'

const TIMESTAMPS = ['created_at', 'updated_at', 'expires_at', 'settled_at'] as const

/**
 * The payment row the outbox trigger saved (to_jsonb, numbers as text), as the row mapper reads rows: its
 * timestamps become Dates again.
 */
export function rowFromSnapshot(snapshot: Record<string, unknown>): PaymentRow {
  const row: Record<string, unknown> = { ...snapshot }
  for (const column of TIMESTAMPS) {
    const value = row[column]
    row[column] = typeof value === 'string' ? new Date(value) : null
  }
  return row as PaymentRow
}

/** An event's body: the payment as the listing showed it at the change. */
export function webhookEvent(input: {
  id: string
  type: WebhookEventType
  createdAt: Date
  payment: Record<string, unknown>
  merchant: { id: string; name: string; logo: string | null }
  logoUrl: LogoUrl
}): WebhookEvent {
  const { merchant } = input
  return {
    id: input.id,
    type: input.type,
    createdAt: input.createdAt.toISOString(),
    data: listingPayment(toPaymentRecord(rowFromSnapshot(input.payment)), {
      id: merchant.id,
      name: merchant.name,
      iconUrl: input.logoUrl(merchant.logo),
    }),
  }
}
