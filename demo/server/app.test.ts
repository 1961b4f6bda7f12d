// The demo backend's own API: prices come from its catalog, never from the browser.
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createDemoApp } from './app.ts'

let server: Server
let origin: string

beforeAll(async () => {
  server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  server.on(
    'request',
    createDemoApp({
      // No test here reaches Till; the router only needs valid settings.
      till: { baseUrl: 'http://127.0.0.1:9', apiKey: 'till_sk_test_demo', merchantId: 'mer_demo' },
      shopOrigin: origin,
      shopDir: import.meta.dirname,
      log: () => {},
    }),
  )
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const post = (body: unknown) =>
  fetch(`${origin}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('the demo backend', () => {
  test('prices an order from its own catalog, exactly, in minor units', async () => {
    const response = await post({
      items: [
        { productId: 'sencha', quantity: 3 },
        { productId: 'whisk', quantity: 1 },
      ],
      returnMode: 'http',
      price: '1',
    })
    expect(response.status).toBe(201)
    const order = (await response.json()) as Record<string, unknown>
    expect(order).toMatchObject({
      total: { currency: 'EUR', value: '4740', formatted: '€47.40' },
      returnMode: 'http',
      paid: false,
      paymentId: null,
    })
    const listed = (await (await fetch(`${origin}/api/orders`)).json()) as { id: string }[]
    expect(listed[0]?.id).toBe(order.id)
  })

  test.each([
    ['an empty cart', { items: [] }],
    ['an unknown product', { items: [{ productId: 'caviar', quantity: 1 }] }],
    ['a fractional quantity', { items: [{ productId: 'sencha', quantity: 1.5 }] }],
    ['an unknown return mode', { items: [{ productId: 'sencha', quantity: 1 }], returnMode: 'ftp' }],
  ])('refuses %s with the error body', async (_name, body) => {
    const response = await post(body)
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ code: 'invalid_request', message: expect.any(String) })
  })

  test('an unknown order is a 404', async () => {
    const response = await fetch(`${origin}/api/orders/ord_nope`)
    expect(response.status).toBe(404)
  })

  test('pages are sent with a Content-Security-Policy that allows only the shop’s own scripts', async () => {
    const response = await fetch(`${origin}/healthz`)
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
  })
})
