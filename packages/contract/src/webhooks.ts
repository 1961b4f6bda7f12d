import { z } from 'zod'
import { DateTime, Payment } from './listing.ts'
import { canTransition, MERCHANT_STATUSES, type MerchantPaymentStatus, type TRANSITIONS } from './statuses.ts'
import { Refund } from './refunds.ts'
import { UnappliedTransfer } from './unapplied-transfers.ts'

/**
 * Server-to-server notifications: a documented extension of the spec (section 6 leaves webhooks "not
 * shown"). Deliveries follow the Standard Webhooks specification: headers `webhook-id`,
 * `webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256>`, one per valid secret).
 */
/** A status a payment can move to: each is an event, `payment.<status>`. */
type ReachedStatus = (typeof TRANSITIONS)[MerchantPaymentStatus][number]
export type PaymentEventTypeName = `payment.${ReachedStatus}`
/** A refund was made, or reached a final status (issue 24). */
export const REFUND_EVENT_TYPES = ['refund.created', 'refund.succeeded', 'refund.failed', 'refund.cancelled'] as const
export type RefundEventTypeName = (typeof REFUND_EVENT_TYPES)[number]
/** The events: a payment reached a status, a transfer to the merchant paid nothing (issue 23), a refund moved. */
export type WebhookEventTypeName = PaymentEventTypeName | 'transfer.unapplied' | RefundEventTypeName

export const PAYMENT_EVENT_TYPES = MERCHANT_STATUSES.filter((status) => MERCHANT_STATUSES.some((from) => canTransition(from, status))).map(
  (status) => `payment.${status}`,
) as [PaymentEventTypeName, ...PaymentEventTypeName[]]

export const WEBHOOK_EVENT_TYPES = [...PAYMENT_EVENT_TYPES, 'transfer.unapplied', ...REFUND_EVENT_TYPES] as [
  WebhookEventTypeName,
  ...WebhookEventTypeName[],
]

export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES).meta({
  id: 'WebhookEventType',
  description:
    'What happened: `payment.<status>`, the payment reached this status; `transfer.unapplied`, a transfer to the merchant ' +
    'paid no payment and is kept for a refund; `refund.created`, `refund.succeeded`, `refund.failed`, `refund.cancelled`, ' +
    'a refund was made or reached that status.',
})
export type WebhookEventType = z.infer<typeof WebhookEventType>

/** The Standard Webhooks headers, lower-case as HTTP/2 and Node give them. */
export const WEBHOOK_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const

/** Seconds after failure n (1-based) before the next attempt: the Standard Webhooks reference schedule. */
export const WEBHOOK_RETRY_SCHEDULE_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const

/** How long a replaced signing secret keeps signing deliveries after a rotation. */
export const WEBHOOK_SECRET_GRACE_SECONDS = 24 * 3600

const eventId = z.string().meta({ description: 'Event id; also the `webhook-id` header. Receivers deduplicate by it.' })

export const PaymentWebhookEvent = z
  .object({
    id: eventId,
    type: z.enum(PAYMENT_EVENT_TYPES),
    createdAt: DateTime,
    data: Payment.meta({ description: 'The payment as the partner listing shows it at the moment of the change.' }),
  })
  .meta({ id: 'PaymentWebhookEvent', description: 'A payment reached the status its type names.' })
export type PaymentWebhookEvent = z.infer<typeof PaymentWebhookEvent>

export const UnappliedTransferEventData = UnappliedTransfer.extend({
  payment: Payment.nullable().meta({
    description: 'The payment it matched as the partner listing showed it when the transfer was recorded; null when none.',
  }),
}).meta({
  id: 'UnappliedTransferEventData',
  description: 'The transfer as GET /v1/merchants/{merchantId}/unapplied-transfers lists it, with the payment it matched.',
})
export type UnappliedTransferEventData = z.infer<typeof UnappliedTransferEventData>

export const TransferUnappliedWebhookEvent = z
  .object({
    id: eventId,
    type: z.literal('transfer.unapplied'),
    createdAt: DateTime,
    data: UnappliedTransferEventData,
  })
  .meta({
    id: 'TransferUnappliedWebhookEvent',
    description: 'A transfer reached the merchant but paid no payment: refund it to `data.from`.',
  })
export type TransferUnappliedWebhookEvent = z.infer<typeof TransferUnappliedWebhookEvent>

export const RefundWebhookEvent = z
  .object({
    id: eventId,
    type: z.enum(REFUND_EVENT_TYPES),
    createdAt: DateTime,
    data: Refund.meta({ description: 'The refund as GET /v1/refunds/{refundId} showed it at the change.' }),
  })
  .meta({ id: 'RefundWebhookEvent', description: 'A refund was created, or reached the status its type names.' })
export type RefundWebhookEvent = z.infer<typeof RefundWebhookEvent>

/**
 * A test event, sent to one endpoint when someone asks for it (the dashboard's "Send test event"): signed
 * like every other, about no payment. No endpoint subscribes to it; acknowledge it with a 2xx.
 */
export const PingWebhookEvent = z
  .object({
    id: eventId,
    type: z.literal('ping'),
    createdAt: DateTime,
    data: z.object({
      // Every event's data names a payment or null: code reading `data.paymentId` reads null here.
      paymentId: z.null().meta({ description: 'Always null: a test event is about no payment.' }),
      endpointId: z.string(),
      merchantId: z.string(),
      message: z.string().meta({ description: 'Words for whoever reads the receiver’s log.' }),
    }),
  })
  .meta({ id: 'PingWebhookEvent', description: 'A test event sent on request: nothing happened to any payment.' })
export type PingWebhookEvent = z.infer<typeof PingWebhookEvent>

const eventSchemaOf = (type: WebhookEventTypeName): string =>
  type === 'transfer.unapplied'
    ? 'TransferUnappliedWebhookEvent'
    : type.startsWith('refund.')
      ? 'RefundWebhookEvent'
      : 'PaymentWebhookEvent'

export const WebhookEvent = z
  .discriminatedUnion('type', [PaymentWebhookEvent, TransferUnappliedWebhookEvent, RefundWebhookEvent, PingWebhookEvent])
  .meta({
    id: 'WebhookEvent',
    discriminator: {
      propertyName: 'type',
      mapping: {
        ...Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, `#/components/schemas/${eventSchemaOf(type)}`])),
        ping: '#/components/schemas/PingWebhookEvent',
      },
    },
    description:
      'The JSON body of a webhook delivery, told apart by `type`. Delivered at least once and in no guaranteed order: ' +
      'deduplicate by `id` (the `webhook-id` header) and read the payment status server-side before acting.',
  })
export type WebhookEvent = z.infer<typeof WebhookEvent>

/** Whether the event is about a payment's status (`payment.<status>`), whose data is the payment. */
export const isPaymentEvent = (event: WebhookEvent): event is PaymentWebhookEvent =>
  (PAYMENT_EVENT_TYPES as readonly string[]).includes(event.type)

const WebhookUrl = z
  .url({ protocol: /^https$/, error: 'must be an absolute https:// URL' })
  .max(2048, { error: 'must be at most 2048 characters long' })

export const CreateWebhookEndpointRequest = z
  .strictObject({
    url: WebhookUrl,
    events: z
      .array(WebhookEventType)
      .min(1, { error: 'must name at least one event type; leave it out for all of them' })
      .optional()
      .meta({ description: 'The event types to deliver; all of them when left out.' }),
  })
  .meta({ id: 'CreateWebhookEndpointRequest', description: 'Body of POST /v1/webhook-endpoints.' })
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>

export const WebhookEndpointStatus = z
  .enum(['enabled', 'disabled'])
  .meta({ id: 'WebhookEndpointStatus', description: 'disabled: Till stopped delivering after every retry of an event failed.' })

export const WebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(WebhookEventType),
    status: WebhookEndpointStatus,
    disabledReason: z.string().nullable(),
    createdAt: DateTime,
  })
  .meta({ id: 'WebhookEndpoint', description: "A merchant's webhook endpoint. Its signing secret is shown only when created or rotated." })
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>

export const WebhookEndpointWithSecret = z
  .object({
    endpoint: WebhookEndpoint,
    secret: z.string().meta({ description: 'The signing secret (whsec_…), shown this once; Till keeps it encrypted.' }),
  })
  .meta({ id: 'WebhookEndpointWithSecret', description: 'A created endpoint, or one whose secret was rotated, with its new secret.' })
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecret>

export const WebhookEndpointList = z
  .object({ data: z.array(WebhookEndpoint) })
  .meta({ id: 'WebhookEndpointList', description: "The merchant's webhook endpoints, newest first." })
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>

export const WebhookAttempt = z
  .object({
    attemptedAt: DateTime,
    statusCode: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when none came." }),
    latencyMs: z.number().int(),
    error: z.string().nullable().meta({ description: 'Why no 2xx came: a timeout, a refused connection, an address that is not public.' }),
  })
  .meta({ id: 'WebhookAttempt', description: 'One try to deliver an event.' })

export const WebhookDelivery = z
  .object({
    id: z.string(),
    event: WebhookEvent,
    status: z.enum(['pending', 'held', 'delivered', 'failed']).meta({
      description: 'held: the endpoint is disabled; enabling it sends the delivery.',
    }),
    nextAttemptAt: DateTime.nullable(),
    attempts: z.array(WebhookAttempt),
  })
  .meta({ id: 'WebhookDelivery', description: "An event's delivery to one endpoint, and every attempt so far." })
export type WebhookDelivery = z.infer<typeof WebhookDelivery>

export const WebhookDeliveryList = z
  .object({ data: z.array(WebhookDelivery) })
  .meta({ id: 'WebhookDeliveryList', description: "The endpoint's most recent deliveries, newest first (at most 100)." })
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>
