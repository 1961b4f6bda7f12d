import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { PaymentListQuery } from './listing-query.ts'
import { COMPONENT_SCHEMAS, createOpenApiDocument } from './openapi.ts'

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

function at(doc: unknown, ...keys: string[]): unknown {
  let node = doc
  for (const key of keys) {
    if (!isObject(node)) return undefined
    node = node[key]
  }
  return node
}

function obj(doc: unknown, ...keys: string[]): Json {
  const node = at(doc, ...keys)
  if (!isObject(node)) throw new Error(`no object at ${keys.join('/')}`)
  return node
}

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, out)
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value)
      else collectRefs(value, out)
    }
  }
  return out
}

function resolve(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined
  const keys = ref
    .slice(2)
    .split('/')
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'))
  return at(doc, ...keys)
}

const deref = (doc: unknown, node: unknown): unknown =>
  isObject(node) && typeof node.$ref === 'string' ? deref(doc, resolve(doc, node.$ref)) : node

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

function operations(doc: unknown): { path: string; method: string; op: Json }[] {
  const out: { path: string; method: string; op: Json }[] = []
  for (const [path, item] of Object.entries(obj(doc, 'paths'))) {
    if (!isObject(item)) continue
    for (const method of METHODS) {
      const op = item[method]
      if (isObject(op)) out.push({ path, method, op })
    }
  }
  return out
}

const EXPECTED_PATHS: Record<string, string[]> = {
  '/v1/payments': ['get'],
  '/v1/merchant/payment': ['post'],
  '/v1/merchant/payment/{id}/status': ['get'],
  '/v1/merchant/payment/{paymentId}/cancel': ['post'],
  '/v1/payments/{paymentId}/status': ['get'],
  '/v1/merchants/payments': ['get'],
  '/v1/merchants': ['post'],
  '/v1/merchants/{merchantId}': ['patch'],
  '/v1/merchants/{merchantId}/unapplied-transfers': ['get'],
  '/v1/refunds': ['post', 'get'],
  '/v1/refunds/{refundId}': ['get'],
  '/v1/refunds/{refundId}/mark-refunded': ['post'],
  '/v1/refunds/{refundId}/cancel': ['post'],
  '/v1/webhook-endpoints': ['post', 'get'],
  '/v1/webhook-endpoints/{endpointId}': ['delete'],
  '/v1/webhook-endpoints/{endpointId}/rotate-secret': ['post'],
  '/v1/webhook-endpoints/{endpointId}/enable': ['post'],
  '/v1/webhook-endpoints/{endpointId}/deliveries': ['get'],
  '/v1/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/redeliver': ['post'],
}
const SANDBOX_PATH = '/v1/sandbox/payments/{paymentId}/simulate'
const SANDBOX_PATHS: Record<string, string[]> = {
  [SANDBOX_PATH]: ['post'],
  '/v1/sandbox/payments/{paymentId}/confirm': ['post'],
  '/v1/sandbox/payments/{paymentId}/reach-deadline': ['post'],
  '/v1/sandbox/refunds/{refundId}/simulate': ['post'],
}

const methodsByPath = (doc: unknown) =>
  Object.fromEntries(
    Object.entries(obj(doc, 'paths')).map(([path, item]) => [path, Object.keys(item as Json).filter((k) => METHODS.includes(k))]),
  )

describe('createOpenApiDocument', () => {
  const doc = createOpenApiDocument()
  const sandboxDoc = createOpenApiDocument({ sandbox: true, serverUrl: 'https://pay.example' })

  it('is OpenAPI 3.1.0 with the agreed info', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(obj(doc, 'info')).toMatchObject({ title: 'Till — Pay service interface', version: '2026-02-18' })
  })

  it('uses the given server URL', () => {
    expect(sandboxDoc.servers).toEqual([{ url: 'https://pay.example' }])
    expect(doc.servers).toEqual([{ url: '/' }])
  })

  it('has exactly the interface paths and methods', () => {
    expect(methodsByPath(doc)).toEqual(EXPECTED_PATHS)
  })

  it('adds the sandbox paths only when asked', () => {
    expect(methodsByPath(sandboxDoc)).toEqual({ ...EXPECTED_PATHS, ...SANDBOX_PATHS })
    expect(methodsByPath(createOpenApiDocument({ sandbox: false }))).toEqual(EXPECTED_PATHS)
  })

  it.each([
    ['plain', doc],
    ['sandbox', sandboxDoc],
  ])('resolves every $ref in the %s document', (_name, document) => {
    const refs = collectRefs(document)
    expect(refs.length).toBeGreaterThan(50)
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^#\/components\//)
      expect(resolve(document, ref), ref).toBeDefined()
    }
  })

  it('round-trips through JSON unchanged', () => {
    expect(JSON.parse(JSON.stringify(sandboxDoc))).toEqual(sandboxDoc)
    expect(JSON.stringify(JSON.parse(JSON.stringify(doc)))).toBe(JSON.stringify(doc))
  })

  it('is deterministic', () => {
    expect(JSON.stringify(createOpenApiDocument())).toBe(JSON.stringify(doc))
  })

  it('turns every component schema into a component, as embedded schemas', () => {
    const schemas = obj(doc, 'components', 'schemas')
    for (const schema of COMPONENT_SCHEMAS) {
      const id = z.globalRegistry.get(schema)?.id
      expect(id).toBeDefined()
      if (id !== undefined) expect(schemas[id], id).toBeDefined()
    }
    expect(schemas.__shared).toBeUndefined()
    for (const [id, schema] of Object.entries(schemas)) {
      expect(at(schema, '$schema'), id).toBeUndefined()
      expect(at(schema, '$id'), id).toBeUndefined()
      expect(typeof at(schema, 'description'), id).toBe('string')
    }
  })

  it('declares the Pay-Version request header and response header on every operation', () => {
    for (const { path, method, op } of operations(sandboxDoc)) {
      const params = (op.parameters as unknown[]).map((p) => deref(sandboxDoc, p))
      expect(params, `${method} ${path}`).toContainEqual(expect.objectContaining({ name: 'Pay-Version', in: 'header', required: false }))
      for (const [status, response] of Object.entries(obj(op, 'responses'))) {
        const headers = obj(deref(sandboxDoc, response), 'headers')
        expect(headers['Pay-Version'], `${method} ${path} ${status}`).toBeDefined()
      }
    }
  })

  it('declares every templated path parameter', () => {
    for (const { path, op } of operations(sandboxDoc)) {
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])
      const declared = (op.parameters as unknown[])
        .map((p) => deref(sandboxDoc, p))
        .filter((p) => at(p, 'in') === 'path')
        .map((p) => at(p, 'name'))
      expect(declared, path).toEqual(templated)
    }
  })

  it('gives every operation a unique operationId and known security schemes', () => {
    const schemes = Object.keys(obj(sandboxDoc, 'components', 'securitySchemes'))
    expect(schemes.sort()).toEqual(['ApiKey', 'AppId', 'BearerAuth', 'ClientId', 'MerchantId'])
    const ids = operations(sandboxDoc).map(({ op }) => op.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toContain('PartnerPayments_list')
    for (const { op } of operations(sandboxDoc)) {
      for (const requirement of op.security as Json[]) for (const name of Object.keys(requirement)) expect(schemes).toContain(name)
    }
  })

  it('describes the security schemes as the spec does', () => {
    expect(obj(doc, 'components', 'securitySchemes')).toMatchObject({
      ApiKey: { type: 'apiKey', in: 'header', name: 'Api-Key' },
      MerchantId: { type: 'apiKey', in: 'header', name: 'Merchant-Id' },
      BearerAuth: { type: 'http', scheme: 'bearer' },
      AppId: { type: 'apiKey', in: 'header', name: 'App-Id' },
      ClientId: { type: 'apiKey', in: 'header', name: 'Client-Id' },
    })
    expect(at(doc, 'paths', '/v1/payments', 'get', 'security')).toEqual([{ ApiKey: [] }, { AppId: [], ClientId: [] }])
    expect(at(doc, 'paths', '/v1/merchant/payment', 'post', 'security')).toEqual([{ ApiKey: [], MerchantId: [] }])
    expect(at(doc, 'paths', '/v1/merchants', 'post', 'security')).toEqual([{ BearerAuth: [] }, { ApiKey: [] }])
  })

  it("lists one merchant's payments with the same query minus merchantId", () => {
    const op = obj(doc, 'paths', '/v1/merchants/payments', 'get')
    expect(at(op, 'security')).toEqual([{ ApiKey: [], MerchantId: [] }])
    const query = (op.parameters as unknown[]).map((p) => deref(doc, p)).filter((p) => at(p, 'in') === 'query')
    expect(query.map((p) => at(p, 'name')).sort()).toEqual(
      Object.keys(PaymentListQuery.shape)
        .filter((name) => name !== 'merchantId')
        .sort(),
    )
  })

  it('lists payments with the documented query and responses', () => {
    const op = obj(doc, 'paths', '/v1/payments', 'get')
    const query = (op.parameters as unknown[]).map((p) => deref(doc, p)).filter((p) => at(p, 'in') === 'query')
    expect(query.map((p) => at(p, 'name')).sort()).toEqual(Object.keys(PaymentListQuery.shape).sort())
    expect(query.find((p) => at(p, 'name') === 'limit')).toMatchObject({
      schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
    })
    expect(query.find((p) => at(p, 'name') === 'asset')).toMatchObject({ deprecated: true })
    expect(query.find((p) => at(p, 'name') === 'status')).toMatchObject({ style: 'form', explode: true, schema: { type: 'array' } })
    expect(Object.keys(obj(op, 'responses')).sort()).toEqual(['200', '400', '401', '429', '500', '502', '503'])
    expect(at(op, 'responses', '200', 'content', 'application/json', 'schema')).toEqual({
      $ref: '#/components/schemas/PaymentListResponse',
    })
    for (const status of ['400', '401', '500', '502']) {
      expect(at(deref(doc, at(op, 'responses', status)), 'content', 'application/json', 'schema')).toEqual({
        $ref: '#/components/schemas/ErrorBody',
      })
    }
  })

  it('documents 429 rate_limited and 503 service_unavailable with Retry-After on every operation', () => {
    for (const [status, code] of [
      ['429', 'rate_limited'],
      ['503', 'service_unavailable'],
    ] as const) {
      for (const [path, item] of Object.entries(obj(sandboxDoc, 'paths'))) {
        for (const method of Object.keys(item as Json).filter((k) => METHODS.includes(k))) {
          expect(at(item, method, 'responses', status), `${method} ${path}`).toEqual({ $ref: `#/components/responses/Error${status}` })
        }
      }
      const response = obj(sandboxDoc, 'components', 'responses', `Error${status}`)
      expect(response.description).toMatch(new RegExp(`Code: ${code}`))
      expect(at(response, 'headers', 'Retry-After', 'schema')).toEqual({ type: 'integer', minimum: 1 })
    }
  })

  it('creates payments with 201, replays with 200 and Idempotent-Replayed', () => {
    const op = obj(doc, 'paths', '/v1/merchant/payment', 'post')
    expect(at(op, 'requestBody', 'content', 'application/json', 'schema')).toEqual({ $ref: '#/components/schemas/CreatePaymentRequest' })
    expect(Object.keys(obj(op, 'responses')).sort()).toEqual(['200', '201', '400', '401', '404', '409', '429', '500', '503'])
    for (const status of ['200', '201']) {
      expect(at(op, 'responses', status, 'content', 'application/json', 'schema')).toEqual({
        $ref: '#/components/schemas/CreatePaymentResponse',
      })
    }
    expect(at(op, 'responses', '200', 'headers', 'Idempotent-Replayed')).toBeDefined()
    expect(at(op, 'responses', '201', 'headers', 'Idempotent-Replayed')).toBeUndefined()
  })

  it('wires the other bodies', () => {
    const schemaOf = (path: string, method: string, ...rest: string[]) =>
      at(sandboxDoc, 'paths', path, method, ...rest, 'content', 'application/json', 'schema')
    const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` })
    expect(schemaOf('/v1/merchant/payment/{id}/status', 'get', 'responses', '200')).toEqual(ref('MerchantPaymentStatusResponse'))
    expect(schemaOf('/v1/payments/{paymentId}/status', 'get', 'responses', '200')).toEqual(ref('PaymentStatusResponse'))
    expect(schemaOf('/v1/merchants', 'post', 'requestBody')).toEqual(ref('CreateMerchantRequest'))
    expect(schemaOf('/v1/merchants', 'post', 'responses', '201')).toEqual(ref('MerchantResponse'))
    expect(schemaOf('/v1/merchants/{merchantId}', 'patch', 'requestBody')).toEqual(ref('UpdateMerchantRequest'))
    expect(schemaOf('/v1/merchants/{merchantId}', 'patch', 'responses', '200')).toEqual(ref('MerchantResponse'))
    expect(schemaOf('/v1/merchants/{merchantId}/unapplied-transfers', 'get', 'responses', '200')).toEqual(ref('UnappliedTransferList'))
    expect(schemaOf(SANDBOX_PATH, 'post', 'requestBody')).toEqual(ref('SimulatePaymentRequest'))
    expect(schemaOf(SANDBOX_PATH, 'post', 'responses', '200')).toEqual(ref('Payment'))
    for (const path of ['/v1/sandbox/payments/{paymentId}/confirm', '/v1/sandbox/payments/{paymentId}/reach-deadline']) {
      expect(at(sandboxDoc, 'paths', path, 'post', 'requestBody'), path).toBeUndefined()
      expect(schemaOf(path, 'post', 'responses', '200'), path).toEqual(ref('Payment'))
    }
    const idempotency = (at(sandboxDoc, 'paths', '/v1/merchants', 'post', 'parameters') as unknown[]).find(
      (p) => at(p, 'name') === 'Idempotency-Key',
    )
    expect(idempotency).toMatchObject({ in: 'header' })
  })

  it('renders the schemas faithfully', () => {
    const schemas = obj(doc, 'components', 'schemas')
    expect(schemas.Settlement).toMatchObject({
      oneOf: [{ $ref: '#/components/schemas/UnsettledSettlement' }, { $ref: '#/components/schemas/SettledSettlement' }],
    })
    expect(schemas.UnsettledSettlement).toMatchObject({ additionalProperties: false, required: ['settled'] })
    expect(at(schemas, 'SettledSettlement', 'required')).toEqual(['settled', 'amount', 'txHash'])
    // Responses stay open to new fields; only deliberately strict shapes are closed.
    expect(at(schemas, 'Payment', 'additionalProperties')).toBeUndefined()
    expect(at(schemas, 'PaymentListResponse', 'required')).toEqual(['data', 'nextCursor', 'stats'])
    expect(at(schemas, 'MinorUnits', 'pattern')).toBe('^(0|[1-9][0-9]*)$')
    expect(at(schemas, 'PositiveMinorUnits', 'pattern')).toBe('^[1-9][0-9]*$')
    expect(at(schemas, 'CreatePaymentRequest', 'required')).toEqual(['amount', 'referenceId'])
    expect(at(schemas, 'ReferenceId')).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 })
    expect(at(schemas, 'ApiVersion', 'enum')).toEqual(['2026-02-18', '2026-02-19.preview'])
    expect(at(schemas, 'ListingPaymentStatus', 'enum')).toHaveLength(6)
    expect(at(schemas, 'UpdateMerchantRequest', 'minProperties')).toBe(1)
    expect(at(schemas, 'DateTime', 'format')).toBe('date-time')
  })
})
