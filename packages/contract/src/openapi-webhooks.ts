// The webhook endpoints' operations: a documented extension of the spec (section 6 leaves webhooks "not shown").
import type { z } from 'zod'
import type { Json } from './openapi-components.ts'
import type { OperationTexts } from './openapi-parts.ts'
import {
  CreateWebhookEndpointRequest,
  WEBHOOK_RETRY_SCHEDULE_SECONDS,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointStatus,
  WebhookEndpointWithSecret,
  PaymentWebhookEvent,
  PingWebhookEvent,
  RefundWebhookEvent,
  TransferUnappliedWebhookEvent,
  UnappliedTransferEventData,
  WebhookEvent,
  WebhookEventType,
} from './webhooks.ts'

export const WEBHOOK_COMPONENTS: readonly z.ZodType[] = [
  WebhookEventType,
  PaymentWebhookEvent,
  UnappliedTransferEventData,
  TransferUnappliedWebhookEvent,
  RefundWebhookEvent,
  PingWebhookEvent,
  WebhookEvent,
  CreateWebhookEndpointRequest,
  WebhookEndpointStatus,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEndpointList,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryList,
]

const stringParam = (name: string, description: string): Json => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
})
const endpointId = stringParam('endpointId', 'The webhook endpoint id (we_…).')

const schedule = WEBHOOK_RETRY_SCHEDULE_SECONDS.map((s) => (s < 60 ? `${s} s` : s < 3600 ? `${s / 60} min` : `${s / 3600} h`)).join(', ')

export const WEBHOOKS_DESCRIPTION =
  'Till POSTs a WebhookEvent to each enabled endpoint of the merchant that asked for its type: `payment.<status>` when a ' +
  'payment becomes processing, succeeded, failed or expired (`data` is the payment), and `transfer.unapplied` when a ' +
  'transfer to the merchant paid no payment (`data` is the transfer as the unapplied-transfers list shows it, with the ' +
  'payment it matched or null). Signed per Standard Webhooks: `webhook-id` (the event id), `webhook-timestamp` ' +
  '(Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per valid ' +
  'secret, space-separated; for 24 h after a rotation both the old and the new secret sign). Any 2xx within 10 s ' +
  `delivers; otherwise Till retries after ${schedule} (± 10 % jitter), then disables the endpoint. Delivery is at ` +
  'least once and unordered: deduplicate by `webhook-id`, and read the payment status from Till before acting. ' +
  'The event is written in the transaction that changes the status or records the transfer, so none is lost to a crash.'

export const WEBHOOK_OPERATIONS: OperationTexts = {
  WebhookEndpoints_create: {
    summary: 'Register a webhook endpoint for the merchant',
    description: `${WEBHOOKS_DESCRIPTION} The URL must be HTTPS on a public address (the logo fetch's guard); the signing secret is in this answer only.`,
    responses: { 201: 'Endpoint created, with its signing secret.' },
  },
  WebhookEndpoints_list: {
    summary: "List the merchant's webhook endpoints",
    responses: { 200: 'The endpoints, newest first.' },
  },
  WebhookEndpoints_delete: {
    summary: 'Delete a webhook endpoint; its pending deliveries are dropped',
    parameters: [endpointId],
    responses: { 204: 'Deleted.' },
  },
  WebhookEndpoints_rotateSecret: {
    summary: 'Replace the signing secret; the old one keeps signing for 24 hours',
    parameters: [endpointId],
    responses: { 200: 'The endpoint and its new secret.' },
  },
  WebhookEndpoints_enable: {
    summary: 'Enable an endpoint Till disabled after its deliveries kept failing',
    parameters: [endpointId],
    responses: { 200: 'The endpoint, enabled.' },
  },
  WebhookEndpoints_deliveries: {
    summary: "The endpoint's recent deliveries, each with its event and every attempt (status code, latency, error)",
    parameters: [endpointId],
    responses: { 200: 'At most 100 deliveries, newest first.' },
  },
  WebhookEndpoints_redeliver: {
    summary: 'Send a delivery again now, with a fresh retry schedule',
    parameters: [endpointId, stringParam('deliveryId', 'The delivery id, from the deliveries list.')],
    responses: { 202: 'Queued.' },
  },
}
