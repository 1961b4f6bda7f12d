import { buildComponents, type Json, ref } from './openapi-components.ts'
import {
  API_KEY_HEADER,
  API_VERSION_HEADER,
  APP_ID_HEADER,
  CLIENT_ID_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  MERCHANT_ID_HEADER,
} from './headers.ts'
import { CAIP2_PATTERN } from './caip.ts'
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, REFERENCE_ID_FILTER_PATTERN } from './listing-query.ts'
import { API_VERSIONS, DEFAULT_API_VERSION } from './versions.ts'

import { errors, jsonBody, jsonResponse, pathParam, versionParam } from './openapi-parts.ts'
import { webhookPaths } from './openapi-webhooks.ts'
import { type OperationId, OPERATIONS } from './operations.ts'

export { COMPONENT_SCHEMAS } from './openapi-components.ts'

const versionHeader: Json = {
  description: 'API version resolved for this request.',
  schema: ref('ApiVersion'),
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request. Codes: invalid_params, params_validation, invalid_api_version, unknown_api_version, api_version_downgrade, missing_idempotency_key, invalid_idempotency_key, bad_request.',
  401: 'Missing or invalid credentials. Codes: missing_api_key, invalid_api_key.',
  404: 'Not found. Codes: merchant_not_found, payment_not_found, webhook_endpoint_not_found, not_found.',
  409: 'Conflict. Codes: reference_already_paid, reference_in_use, idempotency_conflict, invalid_transition.',
  429: 'Too many requests with this API key, or too many failed authentications from this address. Code: rate_limited.',
  500: 'Internal server error. Code: internal_error.',
  502: 'Upstream service returned an error. Code: bad_gateway.',
  503: 'The service cannot answer right now (its database is restarting, or it is shutting down); send the same request again after Retry-After seconds. Code: service_unavailable.',
}

const retryAfterHeader: Json = {
  description: 'Seconds to wait before the next request.',
  schema: { type: 'integer', minimum: 1 },
}

function listQueryParameters(options: { merchantFilter: boolean } = { merchantFilter: true }): Json[] {
  const query = (name: string, schema: Json, description: string, extra: Json = {}): Json => ({
    name,
    in: 'query',
    required: false,
    description,
    schema,
    ...extra,
  })
  const repeated = { style: 'form', explode: true }
  return [
    query('startTs', { type: 'string', format: 'date-time' }, 'RFC 3339 timestamp with a time zone; inclusive.'),
    query('endTs', { type: 'string', format: 'date-time' }, 'RFC 3339 timestamp with a time zone; exclusive; must be later than startTs.'),
    query(
      'token_symbol',
      { type: 'array', items: { type: 'string', minLength: 1 } },
      'Token symbol filter; repeat for several. CAIP-19 ids are not supported.',
      repeated,
    ),
    query('asset', { type: 'string', minLength: 1 }, 'Deprecated: use token_symbol. Will be removed in a future API version.', {
      deprecated: true,
    }),
    query('network', { type: 'string' }, `CAIP-2 chain id; comma-separated for several. Each must match ${CAIP2_PATTERN.source}.`),
    query('sortBy', { type: 'string', enum: ['date', 'amount'], default: 'date' }, 'Sort key.'),
    query('sortDir', { type: 'string', enum: ['asc', 'desc'], default: 'desc' }, 'Sort direction.'),
    query('cursor', { type: 'string', minLength: 1 }, 'Opaque; the nextCursor of the previous page.'),
    query('limit', { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT }, 'Page size.'),
    query('status', { type: 'array', items: ref('ListingPaymentStatus') }, 'Status filter; repeat for several.', repeated),
    query(
      'referenceId',
      { type: 'string', minLength: 3, maxLength: 35, pattern: REFERENCE_ID_FILTER_PATTERN.source },
      'Substring search on the merchant reference id: ASCII letters, digits, space and / - : . , +',
    ),
    ...(options.merchantFilter
      ? [query('merchantId', { type: 'array', items: { type: 'string', minLength: 1 } }, 'Merchant filter; repeat for several.', repeated)]
      : []),
  ]
}

const LISTING_DESCRIPTION =
  'One keyset page of payments, newest first unless sortBy/sortDir say otherwise; ties are broken by paymentId, so a ' +
  'crawl never loses or repeats a payment, whatever is created or changes status between pages. `sortBy=amount` ' +
  "orders by the fiat amount in its currency's standard unit (12.50 USD before 13 JPY). `nextCursor` is signed " +
  'and bound to the query (credentials, filters, sort and Pay-Version; `limit` may change between pages); any other ' +
  'use gets 400 invalid_params. `stats` covers every matching payment, not only the page, and is computed when the ' +
  'first page is read: every page of one query reports the same figures. Errors: invalid_params when a parameter ' +
  'cannot be read (not a date, not a number, an unknown parameter), params_validation when a readable value breaks ' +
  'a rule (limit out of 1–200, endTs not after startTs, a CAIP-19 id as token_symbol, referenceId length or characters).'

// Spec 5, rule 3 shows create merchant with `Authorization: Bearer`; Api-Key is accepted too.
const PARTNER_AUTH = [{ BearerAuth: [] }, { ApiKey: [] }]

const IDEMPOTENCY_DESCRIPTION =
  'Idempotency-Key is required (400 missing_idempotency_key without it, 400 invalid_idempotency_key when it is empty or ' +
  'over 255 characters): the same key with the same body within 24 hours replays the ' +
  'first 201 with `Idempotent-Replayed: true`, and concurrent requests with one key create one merchant; the same key ' +
  'with another body is 409 idempotency_conflict. A refused request keeps nothing, so it may be corrected and retried ' +
  'with the same key.'

const LOGO_DESCRIPTION =
  'An iconUrl is fetched once during the call (HTTPS, public addresses only, at most 3 redirects, 10 s, 2 MB) and checked ' +
  '(JPEG, PNG, WebP or AVIF by content; 500 to 4096 px a side; square within 5 %). Any refusal is 400 params_validation ' +
  'with an issue on iconUrl saying what was wrong. The accepted image is re-encoded and served by Till at its own URL, ' +
  "which becomes the merchant's iconUrl."

export type OpenApiOptions = { serverUrl?: string; sandbox?: boolean }

/** Each operation's description at its path and method, as the operations table places them. */
function pathsOf(operations: Partial<Record<OperationId, Json>>): Record<string, Json> {
  const paths: Record<string, Record<string, Json>> = {}
  for (const [id, operation] of Object.entries(operations) as [OperationId, Json][]) {
    const { method, path } = OPERATIONS[id]
    paths[path] = { ...paths[path], [method.toLowerCase()]: { operationId: id, ...operation } }
  }
  return paths
}

export function createOpenApiDocument(options: OpenApiOptions = {}): Record<string, unknown> {
  const { schemas, inputId } = buildComponents()
  const input = (id: string): Json => ref(inputId(id))
  const merchantAuth = [{ ApiKey: [], MerchantId: [] }]

  const operations: Partial<Record<OperationId, Json>> = {
    PartnerPayments_list: {
      summary: 'List payments with filters, pagination and statistics',
      description:
        `${LISTING_DESCRIPTION} With App-Id and Client-Id instead of Api-Key, only the payments that this client ` +
        'paid through that wallet app are listed, and stats cover those alone.',
      security: [{ ApiKey: [] }, { AppId: [], ClientId: [] }],
      parameters: [versionParam, ...listQueryParameters()],
      responses: {
        '200': jsonResponse('A page of payments.', ref('PaymentListResponse')),
        ...errors(400, 401, 500, 502),
      },
    },
    MerchantPayments_list: {
      summary: "List one merchant's payments with filters, pagination and statistics",
      description: `The partner listing scoped to the merchant named by Merchant-Id; merchantId is not accepted. ${LISTING_DESCRIPTION}`,
      security: merchantAuth,
      parameters: [versionParam, ...listQueryParameters({ merchantFilter: false })],
      responses: {
        '200': jsonResponse('A page of payments.', ref('PaymentListResponse')),
        ...errors(400, 401, 404, 500, 502),
      },
    },
    MerchantPayment_create: {
      summary: 'Create a payment',
      security: merchantAuth,
      parameters: [versionParam],
      requestBody: jsonBody(input('CreatePaymentRequest')),
      responses: {
        '201': jsonResponse('Payment created.', ref('CreatePaymentResponse')),
        '200': jsonResponse('The open payment for this referenceId and amount, replayed.', ref('CreatePaymentResponse'), {
          [IDEMPOTENT_REPLAYED_HEADER]: {
            description: 'Present with the value `true` when an earlier identical request is replayed.',
            schema: { type: 'string', const: 'true' },
          },
        }),
        ...errors(400, 401, 404, 409, 500),
      },
    },
    MerchantPayment_status: {
      summary: 'Read the authoritative status of a payment',
      security: merchantAuth,
      parameters: [versionParam, pathParam('id', 'PaymentId', 'The paymentId returned at creation.')],
      responses: {
        '200': jsonResponse('Payment status.', ref('MerchantPaymentStatusResponse')),
        ...errors(400, 401, 404, 500),
      },
    },
    PartnerPayments_status: {
      summary: 'Read the status of a payment in the partner view',
      security: [{ ApiKey: [] }],
      parameters: [versionParam, pathParam('paymentId', 'PaymentId', 'Payment identifier.')],
      responses: {
        '200': jsonResponse('Payment status.', ref('PaymentStatusResponse')),
        ...errors(400, 401, 404, 500),
      },
    },
    Merchants_create: {
      summary: 'Create a merchant',
      description:
        'Creates a merchant of the calling partner; its id is at once a valid Merchant-Id for the merchant checkout API. ' +
        `${IDEMPOTENCY_DESCRIPTION} ${LOGO_DESCRIPTION}`,
      security: PARTNER_AUTH,
      parameters: [
        versionParam,
        {
          name: IDEMPOTENCY_KEY_HEADER,
          in: 'header',
          required: true,
          description: 'A unique value per creation request (1 to 255 characters), kept for 24 hours per partner.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      ],
      requestBody: jsonBody(input('CreateMerchantRequest')),
      responses: {
        '201': jsonResponse('Merchant created, or the first answer to this Idempotency-Key replayed.', ref('MerchantResponse'), {
          [IDEMPOTENT_REPLAYED_HEADER]: {
            description: 'Present with the value `true` when the answer is a replay of an earlier request with this key.',
            schema: { type: 'string', const: 'true' },
          },
        }),
        ...errors(400, 401, 409, 500),
      },
    },
    Merchants_update: {
      summary: 'Update a merchant (a new iconUrl changes the logo)',
      description:
        'Changes any of merchantName, merchantEmail and iconUrl (null removes the logo); at least one is needed. ' +
        `A refused change changes nothing. Another partner's merchant, or an unknown one, is 404 merchant_not_found. ${LOGO_DESCRIPTION}`,
      security: PARTNER_AUTH,
      parameters: [versionParam, pathParam('merchantId', 'MerchantId', 'Merchant identifier.')],
      requestBody: jsonBody(input('UpdateMerchantRequest')),
      responses: {
        '200': jsonResponse('Merchant updated.', ref('MerchantResponse')),
        ...errors(400, 401, 404, 500),
      },
    },
    Merchants_lateTransfers: {
      summary: "A merchant's late transfers, to refund",
      description:
        'Buyers’ transfers that matched a payment of the merchant but came after it had ended (an extension, like ' +
        'BTCPay’s "paid late"): the payment keeps its status, and the merchant sends the amount back to `from`. ' +
        "Newest first, at most 100. Another partner's merchant, or an unknown one, is 404 merchant_not_found.",
      security: PARTNER_AUTH,
      parameters: [versionParam, pathParam('merchantId', 'MerchantId', 'Merchant identifier.')],
      responses: {
        '200': jsonResponse('The late transfers.', ref('LateTransferList')),
        ...errors(401, 404, 500),
      },
    },
  }

  const sandboxOperations: Partial<Record<OperationId, Json>> = {
    Sandbox_simulate: {
      summary: 'Sandbox only: move a payment to a chosen status',
      security: [{ ApiKey: [] }],
      parameters: [versionParam, pathParam('paymentId', 'PaymentId', 'Payment identifier.')],
      requestBody: jsonBody(input('SimulatePaymentRequest')),
      responses: {
        '200': jsonResponse('The payment after the simulated change.', ref('Payment')),
        ...errors(400, 401, 404, 409, 500),
      },
    },
    Sandbox_confirm: {
      summary: "Sandbox only: the network confirms now (the slow test wallet's payment succeeds at once)",
      description:
        "Delivers the payment's pending confirmation from the slow test wallet, whether it is due later or held " +
        '(`till serve --sandbox-hold-confirmations`). 409 invalid_transition when no confirmation is pending.',
      security: [{ ApiKey: [] }],
      parameters: [versionParam, pathParam('paymentId', 'PaymentId', 'Payment identifier.')],
      responses: {
        '200': jsonResponse('The payment, succeeded.', ref('Payment')),
        ...errors(401, 404, 409, 500),
      },
    },
    Sandbox_reachDeadline: {
      summary: "Sandbox only: bring a pending payment's deadline forward to now",
      description:
        'The payment then ends as any payment past its deadline does: it expires, as of its new deadline. ' +
        '409 invalid_transition unless the payment is pending.',
      security: [{ ApiKey: [] }],
      parameters: [versionParam, pathParam('paymentId', 'PaymentId', 'Payment identifier.')],
      responses: {
        '200': jsonResponse('The payment, expired.', ref('Payment')),
        ...errors(401, 404, 409, 500),
      },
    },
  }
  const paths = pathsOf({ ...operations, ...webhookPaths(merchantAuth), ...(options.sandbox === true ? sandboxOperations : {}) })

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
