import {
  PAYMENT_EVENT_TYPES,
  type Payment,
  REFUND_EVENT_TYPES,
  type Refund,
  type UnappliedTransfer,
  type WebhookEvent,
  type WebhookEventType,
} from '@till/contract'
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

/** Renders a transfer.unapplied event's stored transfer row as the API lists it (evm/unapplied-views.ts). */
export type TransferView = (snapshot: Record<string, unknown>) => UnappliedTransfer

/** Renders a refund.* event's stored refund row as GET /v1/refunds/{id} shows it (refunds/views.ts). */
export type RefundSnapshotView = (snapshot: Record<string, unknown>) => Refund

/**
 * An event's body: for `payment.<status>`, the payment as the listing showed it at the change; for
 * `transfer.unapplied`, the transfer as the API lists it with that payment, or null when it matched none.
 */
export function webhookEvent(input: {
  id: string
  type: WebhookEventType | 'ping'
  /** The endpoint the event goes to: a test event names it. */
  endpointId?: string
  createdAt: Date
  payment: Record<string, unknown> | null
  transfer: Record<string, unknown> | null
  refund?: Record<string, unknown> | null
  merchant: { id: string; name: string; logo: string | null }
  logoUrl: LogoUrl
  transferView: TransferView
  refundView?: RefundSnapshotView | undefined
}): WebhookEvent {
  const { merchant } = input
  const payment = (snapshot: Record<string, unknown>): Payment =>
    listingPayment(toPaymentRecord(rowFromSnapshot(snapshot)), {
      id: merchant.id,
      name: merchant.name,
      iconUrl: input.logoUrl(merchant.logo),
    })
  const head = { id: input.id, createdAt: input.createdAt.toISOString() }
  if (input.type === 'ping') {
    const data = {
      paymentId: null,
      endpointId: input.endpointId ?? '',
      merchantId: merchant.id,
      message: 'A test event from Till: nothing happened to any payment. Answer 2xx to acknowledge it.',
    }
    return { ...head, type: 'ping', data }
  }
  if (input.type === 'transfer.unapplied') {
    if (!input.transfer) throw new Error(`event ${input.id} has no transfer`)
    return {
      ...head,
      type: input.type,
      data: { ...input.transferView(input.transfer), payment: input.payment ? payment(input.payment) : null },
    }
  }
  const refundType = REFUND_EVENT_TYPES.find((type) => type === input.type)
  if (refundType) {
    if (!input.refund || !input.refundView) throw new Error(`event ${input.id} has no refund to show`)
    return { ...head, type: refundType, data: input.refundView(input.refund) }
  }
  const paymentType = PAYMENT_EVENT_TYPES.find((type) => type === input.type)
  if (!paymentType || !input.payment) throw new Error(`event ${input.id} has no payment`)
  return { ...head, type: paymentType, data: payment(input.payment) }
}
