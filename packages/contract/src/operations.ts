// Every operation of the API, declared once: its method and its path. The OpenAPI document places each
// operation's description at its path, the service registers its route there, and the client calls it
// there: a path cannot differ between them (issue 21, point 3).

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE'

export const OPERATIONS = {
  PartnerPayments_list: { method: 'GET', path: '/v1/payments' },
  MerchantPayments_list: { method: 'GET', path: '/v1/merchants/payments' },
  MerchantPayment_create: { method: 'POST', path: '/v1/merchant/payment' },
  MerchantPayment_status: { method: 'GET', path: '/v1/merchant/payment/{id}/status' },
  PartnerPayments_status: { method: 'GET', path: '/v1/payments/{paymentId}/status' },
  Merchants_create: { method: 'POST', path: '/v1/merchants' },
  Merchants_update: { method: 'PATCH', path: '/v1/merchants/{merchantId}' },
  Merchants_lateTransfers: { method: 'GET', path: '/v1/merchants/{merchantId}/late-transfers' },
  WebhookEndpoints_create: { method: 'POST', path: '/v1/webhook-endpoints' },
  WebhookEndpoints_list: { method: 'GET', path: '/v1/webhook-endpoints' },
  WebhookEndpoints_delete: { method: 'DELETE', path: '/v1/webhook-endpoints/{endpointId}' },
  WebhookEndpoints_rotateSecret: { method: 'POST', path: '/v1/webhook-endpoints/{endpointId}/rotate-secret' },
  WebhookEndpoints_enable: { method: 'POST', path: '/v1/webhook-endpoints/{endpointId}/enable' },
  WebhookEndpoints_deliveries: { method: 'GET', path: '/v1/webhook-endpoints/{endpointId}/deliveries' },
  WebhookEndpoints_redeliver: { method: 'POST', path: '/v1/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/redeliver' },
  Sandbox_simulate: { method: 'POST', path: '/v1/sandbox/payments/{paymentId}/simulate' },
  Sandbox_confirm: { method: 'POST', path: '/v1/sandbox/payments/{paymentId}/confirm' },
  Sandbox_reachDeadline: { method: 'POST', path: '/v1/sandbox/payments/{paymentId}/reach-deadline' },
} as const satisfies Record<string, { method: HttpMethod; path: string }>

export type OperationId = keyof typeof OPERATIONS

/** The parameter names of a path, `{paymentId}` → `paymentId`. */
type ParamsOf<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamsOf<Rest> : never

export type OperationParams<Id extends OperationId> = Record<ParamsOf<(typeof OPERATIONS)[Id]['path']>, string>

/** The route of an operation as a router writes it: `{name}` becomes `:name`. */
export function routePath(id: OperationId): string {
  return OPERATIONS[id].path.replaceAll(/\{(\w+)\}/g, ':$1')
}

/** The path of an operation with its parameters filled in, each percent-encoded. */
export function operationPath<Id extends OperationId>(id: Id, params: OperationParams<Id>): string {
  const values = params as Record<string, string>
  return OPERATIONS[id].path.replaceAll(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''))
}
