// The webhook endpoints' operations: a documented extension of the spec (section 6 leaves webhooks "not shown").
import { type Json, ref } from './openapi-components.ts'
import type { OperationId } from './operations.ts'
import { emptyResponse, errors, jsonBody, jsonResponse, versionParam } from './openapi-parts.ts'
import { WEBHOOK_RETRY_SCHEDULE_SECONDS } from './webhooks.ts'

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
  'Till POSTs a WebhookEvent to each enabled endpoint of the payment’s merchant when a payment becomes processing, ' +
  'succeeded, failed or expired. Signed per Standard Webhooks: `webhook-id` (the event id), `webhook-timestamp` ' +
  '(Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per valid ' +
  'secret, space-separated; for 24 h after a rotation both the old and the new secret sign). Any 2xx within 10 s ' +
  `delivers; otherwise Till retries after ${schedule} (± 10 % jitter), then disables the endpoint. Delivery is at ` +
  'least once and unordered: deduplicate by `webhook-id`, and read the payment status from Till before acting. ' +
  'The event is written in the transaction that changes the status, so none is lost to a crash.'

/** Api-Key and Merchant-Id, as the merchant checkout API. */
export function webhookPaths(merchantAuth: Json[]): Partial<Record<OperationId, Json>> {
  const op = (operation: Json): Json => ({ security: merchantAuth, ...operation })
  return {
    WebhookEndpoints_create: op({
      summary: 'Register a webhook endpoint for the merchant',
      description: `${WEBHOOKS_DESCRIPTION} The URL must be HTTPS on a public address (the logo fetch's guard); the signing secret is in this answer only.`,
      parameters: [versionParam],
      requestBody: jsonBody(ref('CreateWebhookEndpointRequest')),
      responses: {
        '201': jsonResponse('Endpoint created, with its signing secret.', ref('WebhookEndpointWithSecret')),
        ...errors(400, 401, 404, 500),
      },
    }),
    WebhookEndpoints_list: op({
      summary: "List the merchant's webhook endpoints",
      parameters: [versionParam],
      responses: { '200': jsonResponse('The endpoints, newest first.', ref('WebhookEndpointList')), ...errors(400, 401, 404, 500) },
    }),
    WebhookEndpoints_delete: op({
      summary: 'Delete a webhook endpoint; its pending deliveries are dropped',
      parameters: [versionParam, endpointId],
      responses: { '204': emptyResponse('Deleted.'), ...errors(400, 401, 404, 500) },
    }),
    WebhookEndpoints_rotateSecret: op({
      summary: 'Replace the signing secret; the old one keeps signing for 24 hours',
      parameters: [versionParam, endpointId],
      responses: {
        '200': jsonResponse('The endpoint and its new secret.', ref('WebhookEndpointWithSecret')),
        ...errors(400, 401, 404, 500),
      },
    }),
    WebhookEndpoints_enable: op({
      summary: 'Enable an endpoint Till disabled after its deliveries kept failing',
      parameters: [versionParam, endpointId],
      responses: {
        '200': jsonResponse('The endpoint, enabled.', {
          type: 'object',
          properties: { endpoint: ref('WebhookEndpoint') },
          required: ['endpoint'],
        }),
        ...errors(400, 401, 404, 500),
      },
    }),
    WebhookEndpoints_deliveries: op({
      summary: "The endpoint's recent deliveries, each with its event and every attempt (status code, latency, error)",
      parameters: [versionParam, endpointId],
      responses: {
        '200': jsonResponse('At most 100 deliveries, newest first.', ref('WebhookDeliveryList')),
        ...errors(400, 401, 404, 500),
      },
    }),
    WebhookEndpoints_redeliver: op({
      summary: 'Send a delivery again now, with a fresh retry schedule',
      parameters: [versionParam, endpointId, stringParam('deliveryId', 'The delivery id, from the deliveries list.')],
      responses: {
        '202': jsonResponse('Queued.', { type: 'object', properties: { queued: { const: true } }, required: ['queued'] }),
        ...errors(400, 401, 404, 500),
      },
    }),
  }
}
