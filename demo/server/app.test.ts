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

  test('quotes a cart line by line from its own catalog, in minor units, without placing an order', async () => {
    const before = ((await (await fetch(`${origin}/api/orders`)).json()) as unknown[]).length
    const response = await fetch(`${origin}/api/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        items: [
          { productId: 'sencha', quantity: 2, price: '1' },
          { productId: 'whisk', quantity: 3 },
        ],
      }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      lines: [
        {
          productId: 'sencha',
          name: 'Sencha, 100 g',
          quantity: 2,
          unitPrice: { currency: 'EUR', value: '1250', formatted: '€12.50' },
          lineTotal: { currency: 'EUR', value: '2500', formatted: '€25.00' },
        },
        {
          productId: 'whisk',
          name: 'Bamboo whisk',
          quantity: 3,
          unitPrice: { currency: 'EUR', value: '990', formatted: '€9.90' },
          lineTotal: { currency: 'EUR', value: '2970', formatted: '€29.70' },
        },
      ],
      total: { currency: 'EUR', value: '5470', formatted: '€54.70' },
    })
    expect(((await (await fetch(`${origin}/api/orders`)).json()) as unknown[]).length).toBe(before)
  })

  test('an order keeps each line’s total beside its unit price', async () => {
    const order = (await (await post({ items: [{ productId: 'cups', quantity: 2 }] })).json()) as { lines: unknown[] }
    expect(order.lines).toEqual([
      expect.objectContaining({
        quantity: 2,
        unitPrice: expect.objectContaining({ value: '2400' }),
        lineTotal: { currency: 'EUR', value: '4800', formatted: '€48.00' },
      }),
    ])
  })

  test('lists each product with a picture and its description in words', async () => {
    const products = (await (await fetch(`${origin}/api/products`)).json()) as { image: { src: string; alt: string } }[]
    expect(products).toHaveLength(4)
    for (const { image } of products) {
      expect(image.src).toMatch(/^\/products\/[a-z]+\.svg$/)
      expect(image.alt.length).toBeGreaterThan(10)
    }
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

  test.each([
    ['an empty cart', { items: [] }],
    ['an unknown product', { items: [{ productId: 'caviar', quantity: 1 }] }],
    ['a quantity of 100', { items: [{ productId: 'sencha', quantity: 100 }] }],
  ])('refuses to quote %s', async (_name, body) => {
    const response = await fetch(`${origin}/api/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ code: 'invalid_request', message: expect.any(String) })
  })

  test('an unpaid order cannot be refunded; an unknown one is a 404', async () => {
    const order = (await (await post({ items: [{ productId: 'sencha', quantity: 1 }] })).json()) as { id: string }
    const unpaid = await fetch(`${origin}/api/orders/${order.id}/refund`, { method: 'POST' })
    expect(unpaid.status).toBe(409)
    expect(await unpaid.json()).toEqual({ code: 'order_not_paid', message: 'Only a paid order can be refunded.' })
    const unknown = await fetch(`${origin}/api/orders/ord_nope/refund`, { method: 'POST' })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ code: 'order_not_found' })
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
