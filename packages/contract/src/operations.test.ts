import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { LISTING_OPERATIONS } from './openapi-listing.ts'
import { MERCHANT_OPERATIONS } from './openapi-merchants.ts'
import { describeOperation } from './openapi-parts.ts'
import { PAYMENT_OPERATIONS } from './openapi-payments.ts'
import { REFUND_OPERATIONS } from './openapi-refunds.ts'
import { SANDBOX_OPERATIONS } from './openapi-sandbox.ts'
import { WEBHOOK_OPERATIONS } from './openapi-webhooks.ts'
import { createOpenApiDocument } from './openapi.ts'
import { type AuthScheme, type OperationId, OPERATIONS, operation, operationPath, routePath } from './operations.ts'

describe('the operations table', () => {
  it('gives a router its path, with `:name` for each parameter', () => {
    expect(routePath('MerchantPayment_status')).toBe('/v1/merchant/payment/:id/status')
    expect(routePath('WebhookEndpoints_redeliver')).toBe('/v1/webhook-endpoints/:endpointId/deliveries/:deliveryId/redeliver')
    expect(routePath('PartnerPayments_list')).toBe('/v1/payments')
  })

  it('gives a client its path, each parameter percent-encoded so no value can change the route', () => {
    expect(operationPath('Merchants_update', { merchantId: 'mer_1' })).toBe('/v1/merchants/mer_1')
    expect(operationPath('WebhookEndpoints_redeliver', { endpointId: '../x', deliveryId: 'a/b?c' })).toBe(
      '/v1/webhook-endpoints/..%2Fx/deliveries/a%2Fb%3Fc/redeliver',
    )
  })

  it('declares each method and path once', () => {
    const routes = Object.values(OPERATIONS).map(({ method, path }) => `${method} ${path}`)
    expect(new Set(routes).size).toBe(routes.length)
  })

  // The client bundles it: a schema library here would ship to every browser that calls the API.
  it('imports nothing', () => {
    expect(readFileSync(new URL('./operations.ts', import.meta.url), 'utf8')).not.toMatch(/^import\b/m)
  })

  it('has each operation described by exactly one area module', () => {
    const modules = [LISTING_OPERATIONS, PAYMENT_OPERATIONS, MERCHANT_OPERATIONS, REFUND_OPERATIONS, WEBHOOK_OPERATIONS, SANDBOX_OPERATIONS]
    const described = modules.flatMap((texts) => Object.keys(texts))
    expect(described.sort()).toEqual(Object.keys(OPERATIONS).sort())
  })

  it('refuses a description whose success statuses are not the table’s', () => {
    expect(() => describeOperation('WebhookEndpoints_delete', { summary: 'x', responses: { 200: 'Deleted.' } }, () => ({}))).toThrow(
      /WebhookEndpoints_delete: the table answers 204/,
    )
  })
})

type Json = Record<string, unknown>

// Written out again rather than imported: the document's names for each way in are what is checked.
const REQUIREMENT: Record<AuthScheme, Json> = {
  partnerKey: { ApiKey: [] },
  merchantKey: { ApiKey: [], MerchantId: [] },
  bearer: { BearerAuth: [] },
  walletApp: { AppId: [], ClientId: [] },
}

describe.each(Object.keys(OPERATIONS) as OperationId[])('%s in the OpenAPI document', (id) => {
  const document = createOpenApiDocument({ sandbox: true }) as { paths: Record<string, Record<string, Json>>; components: Json }
  const { method, path, auth, errors, request, responses } = operation(id)
  const entry = document.paths[path]?.[method.toLowerCase()] as Json
  const components = document.components as Record<'schemas' | 'responses', Json>
  const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` })
  const bodyOf = (node: unknown) =>
    (node as { content?: { 'application/json': { schema: Json } } } | undefined)?.content?.['application/json'].schema

  it('is there, under its id', () => {
    expect(entry?.operationId).toBe(id)
  })

  it('takes the ways in the table allows, in its order', () => {
    expect(entry.security).toEqual(auth.map((scheme) => REQUIREMENT[scheme]))
  })

  it('documents the table’s errors, and 429 and 503 as every operation does', () => {
    const documented = Object.keys(entry.responses as Json).filter((status) => Number(status) >= 400)
    expect(documented).toEqual([...errors, 429, 503].sort().map(String))
    for (const status of documented) {
      expect((entry.responses as Json)[status]).toEqual({ $ref: `#/components/responses/Error${status}` })
      expect(components.responses[`Error${status}`], status).toBeDefined()
    }
  })

  it('takes the table’s request body, a component', () => {
    if (request === undefined) return expect(entry.requestBody).toBeUndefined()
    expect(components.schemas[request], request).toBeDefined()
    // Described as clients send it: the component, or its `Input` twin when the two sides differ.
    expect([schemaRef(request), schemaRef(`${request}Input`)]).toContainEqual(bodyOf(entry.requestBody))
  })

  it('answers the table’s success statuses with its bodies, each a component or written out', () => {
    const answered = Object.keys(entry.responses as Json).filter((status) => Number(status) < 400)
    expect(answered).toEqual(Object.keys(responses))
    for (const [status, body] of Object.entries(responses)) {
      const schema = bodyOf((entry.responses as Json)[status])
      if (typeof body === 'string') expect(components.schemas[body], body).toBeDefined()
      expect(schema, status).toEqual(body === null ? undefined : typeof body === 'string' ? schemaRef(body) : body)
    }
  })
})
