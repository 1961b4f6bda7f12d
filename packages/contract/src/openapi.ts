import type { z } from 'zod'
import { buildComponents, type Json, ref, SHARED_COMPONENTS } from './openapi-components.ts'
import { API_KEY_HEADER, API_VERSION_HEADER, APP_ID_HEADER, CLIENT_ID_HEADER, MERCHANT_ID_HEADER } from './headers.ts'
import { API_VERSIONS, DEFAULT_API_VERSION } from './versions.ts'

import { LISTING_COMPONENTS, LISTING_OPERATIONS } from './openapi-listing.ts'
import { MERCHANT_COMPONENTS, MERCHANT_OPERATIONS } from './openapi-merchants.ts'
import { describeOperation, jsonResponse, type OperationText, type OperationTexts } from './openapi-parts.ts'
import { PAYMENT_COMPONENTS, PAYMENT_OPERATIONS } from './openapi-payments.ts'
import { REFUND_COMPONENTS, REFUND_OPERATIONS } from './openapi-refunds.ts'
import { SANDBOX_COMPONENTS, SANDBOX_OPERATIONS } from './openapi-sandbox.ts'
import { WEBHOOK_COMPONENTS, WEBHOOK_OPERATIONS } from './openapi-webhooks.ts'
import { type OperationId, OPERATIONS } from './operations.ts'

/**
 * Every schema that becomes a component: the shared ones and each area's. The sandbox's are described in the
 * live document too, as they always were; only its operations are left out.
 */
export const COMPONENT_SCHEMAS: readonly z.ZodType[] = [
  ...SHARED_COMPONENTS,
  ...PAYMENT_COMPONENTS,
  ...LISTING_COMPONENTS,
  ...MERCHANT_COMPONENTS,
  ...REFUND_COMPONENTS,
  ...SANDBOX_COMPONENTS,
  ...WEBHOOK_COMPONENTS,
]

const versionHeader: Json = {
  description: 'API version resolved for this request.',
  schema: ref('ApiVersion'),
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request. Codes: invalid_params, params_validation, invalid_api_version, unknown_api_version, api_version_downgrade, missing_idempotency_key, invalid_idempotency_key, bad_request.',
  401: 'Missing or invalid credentials. Codes: missing_api_key, invalid_api_key.',
  404: 'Not found. Codes: merchant_not_found, payment_not_found, refund_not_found, unapplied_transfer_not_found, webhook_endpoint_not_found, not_found.',
  409: 'Conflict. Codes: reference_already_paid, reference_in_use, idempotency_conflict, invalid_transition, payment_not_cancellable, payment_not_refundable, refund_exceeds_payment, refund_not_cancellable, refund_not_payable, transaction_already_used, transaction_not_found.',
  429: 'Too many requests with this API key, or too many failed authentications from this address. Code: rate_limited.',
  500: 'Internal server error. Code: internal_error.',
  502: 'Upstream service returned an error. Code: bad_gateway.',
  503: 'The service cannot answer right now (its database is restarting, or it is shutting down); send the same request again after Retry-After seconds. Code: service_unavailable.',
}

const retryAfterHeader: Json = {
  description: 'Seconds to wait before the next request.',
  schema: { type: 'integer', minimum: 1 },
}

export type OpenApiOptions = { serverUrl?: string; sandbox?: boolean }

/** Each operation's entry at its path and method, as the operations table places and describes them. */
function pathsOf(texts: OperationTexts, input: (schemaId: string) => Json): Record<string, Json> {
  const paths: Record<string, Record<string, Json>> = {}
  for (const [id, text] of Object.entries(texts) as [OperationId, OperationText][]) {
    const { method, path } = OPERATIONS[id]
    paths[path] = { ...paths[path], [method.toLowerCase()]: { operationId: id, ...describeOperation(id, text, input) } }
  }
  return paths
}

export function createOpenApiDocument(options: OpenApiOptions = {}): Record<string, unknown> {
  const { schemas, inputId } = buildComponents(COMPONENT_SCHEMAS)
  const texts = {
    ...LISTING_OPERATIONS,
    ...PAYMENT_OPERATIONS,
    ...MERCHANT_OPERATIONS,
    ...REFUND_OPERATIONS,
    ...WEBHOOK_OPERATIONS,
    ...(options.sandbox === true ? SANDBOX_OPERATIONS : {}),
  }
  const paths = pathsOf(texts, (id) => ref(inputId(id)))

  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Till — Pay service interface',
      version: DEFAULT_API_VERSION,
      description:
        `Self-hostable implementation of the Pay service interface. Known API versions: ${API_VERSIONS.join(', ')}; ` +
        `choose one per request with the ${API_VERSION_HEADER} header.`,
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    paths,
    components: {
      schemas,
      parameters: {
        PayVersion: {
          name: API_VERSION_HEADER,
          in: 'header',
          required: false,
          description: "API version for this request; defaults to the partner's pinned version.",
          schema: ref('ApiVersion'),
        },
      },
      headers: { PayVersion: versionHeader },
      responses: Object.fromEntries(
        Object.entries(ERROR_DESCRIPTIONS).map(([status, description]) => [
          `Error${status}`,
          jsonResponse(description, ref('ErrorBody'), status === '429' || status === '503' ? { 'Retry-After': retryAfterHeader } : {}),
        ]),
      ),
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'Private API key; server-side only.' },
        MerchantId: { type: 'apiKey', in: 'header', name: MERCHANT_ID_HEADER, description: 'Merchant identifier.' },
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token.' },
        AppId: { type: 'apiKey', in: 'header', name: APP_ID_HEADER, description: 'Public App ID for wallet authentication.' },
        ClientId: { type: 'apiKey', in: 'header', name: CLIENT_ID_HEADER, description: 'Client id; required with App-Id.' },
      },
    },
  }
  // A JSON round trip drops the `undefined` defaults that `.catch(undefined)` leaves behind.
  return JSON.parse(JSON.stringify(document)) as Record<string, unknown>
}
