// Every operation of the API, declared once: its method and path, who may call it, what it takes and answers,
// and the errors it documents (docs/decisions/0026-operations-table.md). The OpenAPI document, the service's
// routes and their authentication, and the client's calls all read this table, so none can disagree with
// another. Prose (summaries, descriptions) stays in the area's OpenAPI module. Kept free of zod: the client
// imports it, and schemas are named by their component id, which a test checks against the components.

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE'

/**
 * One way to be let in; an operation lists the ways it accepts, any one of which is enough (spec 5).
 * - `partnerKey`: the partner's API key in Api-Key.
 * - `merchantKey`: Api-Key, with Merchant-Id naming one of the partner's merchants (rule 2).
 * - `bearer`: the API key as `Authorization: Bearer` (rule 3 shows it for creating a merchant).
 * - `walletApp`: App-Id + Client-Id, a wallet app's client, which sees only what it paid (rule 1).
 */
export type AuthScheme = 'partnerKey' | 'merchantKey' | 'bearer' | 'walletApp'

export type ErrorStatus = 400 | 401 | 404 | 409 | 500 | 502

/** Every /v1 request counts against the rate limits (429) and may find the database restarting (503). */
export const EVERY_OPERATION_ERRORS = [429, 503] as const

export type SuccessStatus = 200 | 201 | 202 | 204

/** An object schema written out where a response only wraps a component, which the document writes inline. */
export type InlineSchema = {
  readonly type: 'object'
  readonly properties: Readonly<Record<string, unknown>>
  readonly required: readonly string[]
}

/** A component's id, an inline schema, or null for an answer without a body. */
export type BodySchema = string | InlineSchema | null

export type Operation = {
  readonly method: HttpMethod
  readonly path: string
  readonly auth: readonly AuthScheme[]
  /** Besides EVERY_OPERATION_ERRORS. */
  readonly errors: readonly ErrorStatus[]
  /** The request body's component, described as clients send it. */
  readonly request?: string
  /** Each success status's body, described as the server sends it. */
  readonly responses: Readonly<Partial<Record<SuccessStatus, BodySchema>>>
}

// No operation is gated by API version: each takes Pay-Version and answers every known version (the preview
// drops the listing's `asset` parameter, not an operation), so the table has no version field to fill.

const MERCHANT: readonly AuthScheme[] = ['merchantKey']
const PARTNER: readonly AuthScheme[] = ['partnerKey']
const PARTNER_ADMIN: readonly AuthScheme[] = ['bearer', 'partnerKey']

const ENABLED_ENDPOINT: InlineSchema = {
  type: 'object',
  properties: { endpoint: { $ref: '#/components/schemas/WebhookEndpoint' } },
  required: ['endpoint'],
}
const QUEUED: InlineSchema = { type: 'object', properties: { queued: { const: true } }, required: ['queued'] }

export const OPERATIONS = {
  PartnerPayments_list: {
    method: 'GET',
    path: '/v1/payments',
    auth: ['partnerKey', 'walletApp'],
    errors: [400, 401, 500, 502],
    responses: { 200: 'PaymentListResponse' },
  },
  MerchantPayments_list: {
    method: 'GET',
    path: '/v1/merchants/payments',
    auth: MERCHANT,
    errors: [400, 401, 404, 500, 502],
    responses: { 200: 'PaymentListResponse' },
  },
  MerchantPayment_create: {
    method: 'POST',
    path: '/v1/merchant/payment',
    auth: MERCHANT,
    errors: [400, 401, 404, 409, 500],
    request: 'CreatePaymentRequest',
    // 200 replays the open payment for the same referenceId and amount.
    responses: { 201: 'CreatePaymentResponse', 200: 'CreatePaymentResponse' },
  },
  MerchantPayment_status: {
    method: 'GET',
    path: '/v1/merchant/payment/{id}/status',
    auth: MERCHANT,
    errors: [400, 401, 404, 500],
    responses: { 200: 'MerchantPaymentStatusResponse' },
  },
  MerchantPayment_cancel: {
    method: 'POST',
    path: '/v1/merchant/payment/{paymentId}/cancel',
    auth: MERCHANT,
    errors: [400, 401, 404, 409, 500],
    responses: { 200: 'CancelPaymentResponse' },
  },
  PartnerPayments_status: {
    method: 'GET',
    path: '/v1/payments/{paymentId}/status',
    auth: PARTNER,
    errors: [400, 401, 404, 500],
    responses: { 200: 'PaymentStatusResponse' },
  },
  Merchants_create: {
    method: 'POST',
    path: '/v1/merchants',
    auth: PARTNER_ADMIN,
    errors: [400, 401, 409, 500],
    request: 'CreateMerchantRequest',
    responses: { 201: 'MerchantResponse' },
  },
  Merchants_update: {
    method: 'PATCH',
    path: '/v1/merchants/{merchantId}',
    auth: PARTNER_ADMIN,
    errors: [400, 401, 404, 500],
    request: 'UpdateMerchantRequest',
    responses: { 200: 'MerchantResponse' },
  },
  Merchants_unappliedTransfers: {
    method: 'GET',
    path: '/v1/merchants/{merchantId}/unapplied-transfers',
    auth: PARTNER_ADMIN,
    errors: [400, 401, 404, 500],
    responses: { 200: 'UnappliedTransferList' },
  },
  WebhookEndpoints_create: {
    method: 'POST',
    path: '/v1/webhook-endpoints',
    auth: MERCHANT,
    errors: [400, 401, 404, 500],
    request: 'CreateWebhookEndpointRequest',
    responses: { 201: 'WebhookEndpointWithSecret' },
  },
  WebhookEndpoints_list: {
    method: 'GET',
    path: '/v1/webhook-endpoints',
    auth: MERCHANT,
    errors: [400, 401, 404, 500],
    responses: { 200: 'WebhookEndpointList' },
  },
  WebhookEndpoints_delete: {
    method: 'DELETE',
    path: '/v1/webhook-endpoints/{endpointId}',
    auth: MERCHANT,
    errors: [400, 401, 404, 500],
    responses: { 204: null },
  },
  WebhookEndpoints_rotateSecret: {
    method: 'POST',
    path: '/v1/webhook-endpoints/{endpointId}/rotate-secret',
    auth: MERCHANT,
    errors: [400, 401, 404, 500],
    responses: { 200: 'WebhookEndpointWithSecret' },
  },
  WebhookEndpoints_enable: {
    method: 'POST',
    path: '/v1/webhook-endpoints/{endpointId}/enable',
    auth: MERCHANT,
    errors: [400, 401, 404, 500],
    responses: { 200: ENABLED_ENDPOINT },
  },
  WebhookEndpoints_deliveries: {
    method: 'GET',
    path: '/v1/webhook-endpoints/{endpointId}/deliveries',
    auth: MERCHANT,
    errors: [400, 401, 404, 500],
    responses: { 200: 'WebhookDeliveryList' },
  },
  WebhookEndpoints_redeliver: {
    method: 'POST',
    path: '/v1/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/redeliver',
    auth: MERCHANT,
    errors: [400, 401, 404, 500],
    responses: { 202: QUEUED },
  },
  Refunds_create: {
    method: 'POST',
    path: '/v1/refunds',
    auth: MERCHANT,
    errors: [400, 401, 404, 409, 500],
    request: 'CreateRefundRequest',
    responses: { 201: 'Refund' },
  },
  Refunds_list: {
    method: 'GET',
    path: '/v1/refunds',
    auth: MERCHANT,
    errors: [400, 401, 404, 500],
    responses: { 200: 'RefundList' },
  },
  Refunds_get: {
    method: 'GET',
    path: '/v1/refunds/{refundId}',
    auth: MERCHANT,
    errors: [400, 401, 404, 500],
    responses: { 200: 'Refund' },
  },
  Refunds_markRefunded: {
    method: 'POST',
    path: '/v1/refunds/{refundId}/mark-refunded',
    auth: MERCHANT,
    errors: [400, 401, 404, 409, 500],
    request: 'MarkRefundedRequest',
    responses: { 200: 'Refund' },
  },
  Refunds_cancel: {
    method: 'POST',
    path: '/v1/refunds/{refundId}/cancel',
    auth: MERCHANT,
    errors: [400, 401, 404, 409, 500],
    responses: { 200: 'Refund' },
  },
  // Each acts on one of the merchant's payments, as the sandbox routes always required (requireMerchant).
  Sandbox_simulate: {
    method: 'POST',
    path: '/v1/sandbox/payments/{paymentId}/simulate',
    auth: MERCHANT,
    errors: [400, 401, 404, 409, 500],
    request: 'SimulatePaymentRequest',
    responses: { 200: 'Payment' },
  },
  Sandbox_confirm: {
    method: 'POST',
    path: '/v1/sandbox/payments/{paymentId}/confirm',
    auth: MERCHANT,
    errors: [401, 404, 409, 500],
    responses: { 200: 'Payment' },
  },
  Sandbox_reachDeadline: {
    method: 'POST',
    path: '/v1/sandbox/payments/{paymentId}/reach-deadline',
    auth: MERCHANT,
    errors: [401, 404, 409, 500],
    responses: { 200: 'Payment' },
  },
  Sandbox_simulateRefund: {
    method: 'POST',
    path: '/v1/sandbox/refunds/{refundId}/simulate',
    auth: MERCHANT,
    errors: [400, 401, 404, 409, 500],
    request: 'SimulateRefundRequest',
    responses: { 200: 'Refund' },
  },
} as const satisfies Record<string, Operation>

export type OperationId = keyof typeof OPERATIONS

/** The parameter names of a path, `{paymentId}` → `paymentId`. */
type ParamsOf<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamsOf<Rest> : never

export type OperationParams<Id extends OperationId> = Record<ParamsOf<(typeof OPERATIONS)[Id]['path']>, string>

/** An operation as the table declares it, without the literal types that `as const` gives each entry. */
export function operation(id: OperationId): Operation {
  return OPERATIONS[id]
}

/** The route of an operation as a router writes it: `{name}` becomes `:name`. */
export function routePath(id: OperationId): string {
  return OPERATIONS[id].path.replaceAll(/\{(\w+)\}/g, ':$1')
}

/** The path of an operation with its parameters filled in, each percent-encoded. */
export function operationPath<Id extends OperationId>(id: Id, params: OperationParams<Id>): string {
  const values = params as Record<string, string>
  return OPERATIONS[id].path.replaceAll(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''))
}
