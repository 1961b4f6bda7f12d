// Hostile strings on every route: the NUL character and lone surrogates, which PostgreSQL cannot store, in
// each path parameter, each query parameter the API knows and each string of a valid body, with valid
// credentials so that nothing stops them before they could reach the database. Each is refused in the
// spec's shape, never with a 500. Headers go through Node's own parser, over a raw socket.
import { ErrorBody } from '@till/contract'
import type { LightMyRequestResponse } from 'fastify'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCheckoutPayment } from '../../test/checkout-fixtures.ts'
import { createAccount, createBody, useTestApp, type Account } from '../../test/fixtures.ts'
import { registerEndpoint } from '../../test/webhook-fixtures.ts'
import { exchange, portOf } from './raw-http.test-helper.ts'

// Thousands of requests for one payment, from one address: no rate limit may answer first. Endpoint and
// logo hosts resolve to a public address; nothing here dials them.
const unlimited = { limit: 1_000_000, windowMs: 60_000 }
const ctx = useTestApp({
  config: {
    sandbox: true,
    checkoutRateLimits: { perIp: unlimited, perPayment: unlimited, actionsPerPayment: unlimited },
    apiRateLimits: { perKey: unlimited, authFailuresPerAddress: unlimited },
  },
  outbound: { lookup: async () => [{ address: '93.184.216.34', family: 4 }] },
})

type Route = { method: string; path: string }

/** Every route the app serves, read from Fastify's own route tree (HEAD left out: it is GET's twin). */
function routesOf(tree: string): Route[] {
  const routes: Route[] = []
  const prefixes: string[] = []
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([A-Z, ]+)\)$/.exec(line)
    if (!match) continue
    const depth = (match[1] ?? '').length / 4
    const path = (prefixes[depth - 1] ?? '') + (match[2] ?? '')
    prefixes[depth] = path
    for (const method of (match[3] ?? '').split(', ')) if (method !== 'HEAD') routes.push({ method, path })
  }
  return routes
}

// Every query parameter a route reads: the listings', the long-poll's, the page's and the wallet link's.
const QUERY_NAMES = [
  'startTs',
  'endTs',
  'token_symbol',
  'asset',
  'network',
  'sortBy',
  'sortDir',
  'cursor',
  'limit',
  'status',
  'referenceId',
  'merchantId',
  'after',
  'waitMs',
  'returnUrl',
  'preferUniversalLinks',
  'uri',
]

const HOSTILE = [
  { name: 'NUL', raw: 'a\u0000b', encoded: 'a%00b', message: /NUL character/ },
  { name: 'a lone surrogate', raw: 'a\ud800b', encoded: 'a%ED%A0%80b', message: /lone surrogate/ },
]

/** Valid bodies, so that only the hostile string is wrong; any other POST or PATCH gets a small object. */
const BODIES: Record<string, Record<string, unknown>> = {
  'POST /v1/merchant/payment': createBody(),
  'POST /v1/merchants': { merchantName: 'Tea Shop', merchantEmail: 'tea@example.com' },
  'PATCH /v1/merchants/:merchantId': { merchantName: 'Tea Shop' },
  'POST /v1/webhook-endpoints': { url: 'https://hooks.example.com/till' },
  'POST /v1/sandbox/payments/:paymentId/simulate': { outcome: 'failed' },
  'POST /checkout/api/payments/:paymentId/confirm': { walletId: 'sandbox-approve' },
  'POST /checkout/api/payments/:paymentId/dev-wallet': { method: 'eth_accounts', params: [] },
}

/** Each string inside `value`, with its path as the API's issues name it (`amount.value`, `params[0]`). */
function stringLeaves(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return [path]
  if (Array.isArray(value)) return value.flatMap((item, index) => stringLeaves(item, `${path}[${index}]`))
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, path ? `${path}.${key}` : key))
  return []
}

function withLeaf(value: unknown, path: string, replacement: string): unknown {
  const copy = structuredClone(value)
  const keys = path.split(/\.|\[(\d+)\]/).filter((key) => key !== undefined && key !== '')
  let target = copy as Record<string, unknown>
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>
  target[keys.at(-1) ?? ''] = replacement
  return copy
}

function expectRefused(response: LightMyRequestResponse, status: number, code: string, label: string) {
  expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBe(status)
  expect(ErrorBody.parse(response.json()).code, label).toBe(code)
}

let account: Account
let params: Record<string, string>
let token: string
let routes: Route[]
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db, { sandbox: true })
  const checkout = await createCheckoutPayment(ctx.app, account)
  const { endpoint } = await registerEndpoint(ctx.app, account, { url: 'https://hooks.example.com/till' })
  token = checkout.token
  params = {
    paymentId: checkout.paymentId,
    id: checkout.paymentId,
    endpointId: endpoint.id,
    merchantId: account.merchantId,
    deliveryId: '1',
    digest: 'a'.repeat(64),
    file: 'x.webp',
  }
  routes = routesOf(ctx.app.printRoutes({ commonPrefix: false }))
})

const headersFor = (route: Route) => ({
  ...account.headers,
  'idempotency-key': 'fuzz-1',
  ...(route.path.startsWith('/checkout/api/') ? { 'checkout-token': token } : {}),
})

const pathOf = (route: Route, replace?: { name: string; value: string }) =>
  route.path.replaceAll(/:(\w+)/g, (_, name: string) => (name === replace?.name ? replace.value : encodeURIComponent(params[name] ?? 'x')))

const bodyOf = (route: Route): Record<string, unknown> | undefined =>
  route.method === 'POST' || route.method === 'PATCH' ? (BODIES[`${route.method} ${route.path}`] ?? { note: 'fine' }) : undefined

describe('the NUL family on every route', () => {
  it('knows the routes it fuzzes', () => {
    expect(routes.length).toBeGreaterThanOrEqual(30)
    expect(routes).toContainEqual({ method: 'DELETE', path: '/v1/webhook-endpoints/:endpointId' })
    expect(routes).toContainEqual({ method: 'GET', path: '/checkout/api/payments/:paymentId/status' })
  })

  it('answers a hostile path parameter with 404, or 400 for a malformed encoding', async () => {
    for (const route of routes) {
      for (const name of route.path.match(/:(\w+)/g)?.map((param) => param.slice(1)) ?? []) {
        for (const hostile of HOSTILE) {
          const body = bodyOf(route)
          const response = await ctx.app.inject({
            method: route.method as 'GET',
            url: pathOf(route, { name, value: hostile.encoded }),
            headers: headersFor(route),
            ...(body ? { payload: body } : {}),
          })
          const label = `${route.method} ${route.path} with ${hostile.name} in :${name}`
          if (hostile.name !== 'NUL') {
            // A percent-encoded lone surrogate is no UTF-8: the router refuses the URL itself.
            expectRefused(response, 400, 'bad_request', label)
          } else if (route.path.startsWith('/checkout/api/')) {
            // The page's token is checked first, and it is another payment's.
            expectRefused(response, 403, 'checkout_token_invalid', label)
          } else {
            expectRefused(response, 404, 'not_found', label)
          }
        }
      }
    }
  })

  // A percent-encoded lone surrogate in a query is left as it was written, which PostgreSQL stores: NUL only.
  it('answers NUL in a query parameter with 400 params_validation naming it', async () => {
    const nul = HOSTILE.filter((hostile) => hostile.name === 'NUL')
    for (const route of routes) {
      for (const name of QUERY_NAMES) {
        for (const hostile of nul) {
          const body = bodyOf(route)
          const response = await ctx.app.inject({
            method: route.method as 'GET',
            url: `${pathOf(route)}?${name}=${hostile.encoded}`,
            headers: headersFor(route),
            ...(body ? { payload: body } : {}),
          })
          const label = `${route.method} ${route.path}?${name}= with ${hostile.name}`
          expectRefused(response, 400, 'params_validation', label)
          expect(response.json().issues, label).toEqual([{ field: name, message: expect.stringMatching(hostile.message) }])
        }
      }
    }
  })

  it('answers a hostile string anywhere in a body with 400 params_validation naming the field', async () => {
    for (const route of routes.filter(bodyOf)) {
      const valid = bodyOf(route)
      for (const leaf of stringLeaves(valid)) {
        for (const hostile of HOSTILE) {
          const response = await ctx.app.inject({
            method: route.method as 'POST',
            url: pathOf(route),
            headers: { ...headersFor(route), 'content-type': 'application/json' },
            // JSON's own escapes, as a client would send them: \u0000 and \ud800.
            payload: JSON.stringify(withLeaf(valid, leaf, hostile.raw)),
          })
          const label = `${route.method} ${route.path} with ${hostile.name} in ${leaf}`
          expectRefused(response, 400, 'params_validation', label)
          expect(response.json().issues, label).toEqual([{ field: leaf, message: expect.stringMatching(hostile.message) }])
        }
      }
    }
  })

  it('answers the cases that were 500s', async () => {
    const get = (url: string, method: 'GET' | 'DELETE' = 'GET') => ctx.app.inject({ method, url, headers: account.headers })
    expectRefused(await get('/v1/payments?token_symbol=%00'), 400, 'params_validation', 'listing')
    expectRefused(await get('/v1/merchants/payments?token_symbol=%00'), 400, 'params_validation', 'merchant listing')
    expectRefused(await get('/v1/webhook-endpoints/%00', 'DELETE'), 404, 'not_found', 'endpoint deletion')
  })
})

describe('hostile headers', () => {
  let port: number
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' })
    port = portOf(ctx.app)
  })

  it("are refused by Node's parser with 400 bad_request before any route", async () => {
    for (const name of [
      'Api-Key',
      'Merchant-Id',
      'Idempotency-Key',
      'Pay-Version',
      'App-Id',
      'Client-Id',
      'Checkout-Token',
      'Authorization',
    ]) {
      const response = await exchange(
        port,
        `POST /v1/merchants HTTP/1.1\r\nHost: till.test\r\n${name}: a\u0000b\r\nContent-Length: 0\r\n\r\n`,
      )
      expect(response.status, name).toBe(400)
      expect(ErrorBody.parse(JSON.parse(response.body)).code, name).toBe('bad_request')
    }
  })
})
