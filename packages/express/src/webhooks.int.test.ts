// POST /pay/webhooks: Till's signed deliveries. Each is signed here with the Standard Webhooks reference
// implementation (`Webhook#sign`) at a time the test chooses, and the router is given that clock, so the
// 5-minute tolerance is tested without waiting. Statuses are real: a sandbox Till, moved by simulate.
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { TillClient } from '@till/client'
import type { PaymentWebhookEvent, VerifyReply, WebhookEvent } from '@till/contract'
import express from 'express'
import { Webhook } from 'standardwebhooks'
import { afterAll, describe, expect, test } from 'vitest'
import { call, postJson, type Reply, type Shop, type ShopOrder, useTill } from '../test/fixtures.ts'
import { memoryOrderStore } from './orders.ts'
import { memoryWebhookIdStore } from './webhook-ids.ts'
import { UnmatchedPaymentError, webhookRouter } from './webhooks.ts'

const till = useTill()

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`
const SECRET = newSecret()
// A fixed instant, far from the real clock: a test that passed on real time would fail here.
const NOW = Date.parse('2031-05-06T07:08:09Z')
const now = () => NOW

const LISTING_STATUS = {
  'payment.processing': 'processing',
  'payment.succeeded': 'succeeded',
  'payment.failed': 'failed',
  'payment.expired': 'expired',
  'payment.cancelled': 'cancelled',
} as const

/** An event as Till would send it: the payment as the listing shows it. */
function eventOf(type: PaymentWebhookEvent['type'], referenceId: string, paymentId: string): PaymentWebhookEvent {
  const status = LISTING_STATUS[type]
  const at = new Date(NOW).toISOString()
  return {
    id: `evt_${randomUUID()}`,
    type,
    createdAt: at,
    data: {
      paymentId,
      merchant: { id: till.account.merchantId },
      referenceId,
      status,
      isTerminal: status !== 'processing',
      createdAt: at,
      lastUpdatedAt: at,
    },
  }
}

interface Signed {
  body: string
  headers: Record<string, string>
}

/** Signs `body` as Till does: one `v1,` signature per secret, space-separated. */
function sign(body: string, options: { id: string; at?: number; secrets?: string[] }): Signed {
  const at = new Date(options.at ?? NOW)
  const signatures = (options.secrets ?? [SECRET]).map((secret) => new Webhook(secret).sign(options.id, at, body))
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': options.id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signatures.join(' '),
    },
  }
}

const signEvent = (event: WebhookEvent, options: { at?: number; secrets?: string[] } = {}): Signed =>
  sign(JSON.stringify(event), { id: event.id, ...options })

const post = (url: string, signed: Signed): Promise<Reply> => call(url, { method: 'POST', headers: signed.headers, body: signed.body })

const deliver = (shop: Shop, event: WebhookEvent, options: { at?: number; secrets?: string[] } = {}): Promise<Reply> =>
  post(`${shop.origin}/pay/webhooks`, signEvent(event, options))

/** A shop with the webhook route, recording every event its `onEvent` hook sees. */
async function webhookShop(options: Parameters<typeof till.shop>[0] = {}, setup: Parameters<typeof till.shop>[1] = {}) {
  const events: WebhookEvent[] = []
  const shop = await till.shop({ webhookSecret: SECRET, now, onEvent: (event) => void events.push(event), ...options }, setup)
  return { shop, events }
}

async function pendingOrder(shop: Shop) {
  const order = shop.order(1500n)
  const reply = await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id })
  const { paymentId } = reply.json<{ paymentId: string }>()
  return { order, paymentId }
}

async function paidAtTill(shop: Shop) {
  const { order, paymentId } = await pendingOrder(shop)
  await till.simulate(paymentId, 'succeeded')
  return { order, paymentId }
}

const verify = async (shop: Shop, order: ShopOrder, paymentId: string) =>
  (await call(`${shop.origin}/pay/verify?order=${order.id}&payment_id=${paymentId}`)).json<VerifyReply>()

describe('POST /webhooks: signatures', () => {
  test('a payment.succeeded delivery, correctly signed, fulfils the order Till reports paid', async () => {
    const { shop, events } = await webhookShop()
    const { order, paymentId } = await paidAtTill(shop)
    const event = eventOf('payment.succeeded', order.id, paymentId)

    const reply = await deliver(shop, event)

    expect(reply.status).toBe(200)
    expect(reply.json()).toEqual({ received: true })
    expect(shop.fulfilled).toEqual([{ orderId: order.id, paymentId }])
    expect(order.paid).toBe(true)
    expect(events).toEqual([event])
    expect(shop.errors).toEqual([])
  })

  test('timestamps up to 5 minutes away either way are accepted', async () => {
    const { shop, events } = await webhookShop()
    for (const at of [NOW - 300_000, NOW + 300_000, NOW - 299_999]) {
      expect((await deliver(shop, eventOf('payment.processing', 'ord_x', 'pay_x'), { at })).status).toBe(200)
    }
    expect(events).toHaveLength(3)
  })

  test('a signature computed independently (HMAC-SHA256 of id.timestamp.body under the decoded secret) is accepted', async () => {
    const { shop, events } = await webhookShop()
    const event = eventOf('payment.failed', 'ord_x', 'pay_x')
    const body = JSON.stringify(event)
    const timestamp = String(Math.floor(NOW / 1000))
    const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64')
    const mac = createHmac('sha256', key).update(`${event.id}.${timestamp}.${body}`).digest('base64')
    const reply = await call(`${shop.origin}/pay/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': event.id,
        'webhook-timestamp': timestamp,
        'webhook-signature': `v1,${mac}`,
      },
      body,
    })
    expect(reply.status).toBe(200)
    expect(events).toEqual([event])
  })

  const refusals: [string, (signed: Signed) => Signed][] = [
    ['a tampered body', (s) => ({ ...s, body: s.body.replace('"payment.succeeded"', '"payment.failed"') })],
    ['a body with one byte added', (s) => ({ ...s, body: `${s.body} ` })],
    [
      'a tampered timestamp',
      (s) => ({ ...s, headers: { ...s.headers, 'webhook-timestamp': String(Number(s.headers['webhook-timestamp']) + 1) } }),
    ],
    ['a tampered id', (s) => ({ ...s, headers: { ...s.headers, 'webhook-id': `${s.headers['webhook-id']}x` } })],
    ['no webhook-id', (s) => ({ ...s, headers: without(s.headers, 'webhook-id') })],
    ['no webhook-timestamp', (s) => ({ ...s, headers: without(s.headers, 'webhook-timestamp') })],
    ['no webhook-signature', (s) => ({ ...s, headers: without(s.headers, 'webhook-signature') })],
    [
      'a timestamp that is not Unix seconds',
      (s) => ({ ...s, headers: { ...s.headers, 'webhook-timestamp': `${s.headers['webhook-timestamp']}abc` } }),
    ],
    [
      'a signature of another version',
      (s) => ({ ...s, headers: { ...s.headers, 'webhook-signature': s.headers['webhook-signature']!.replace('v1,', 'v2,') } }),
    ],
    ['an empty signature', (s) => ({ ...s, headers: { ...s.headers, 'webhook-signature': 'v1,' } })],
  ]

  test.each(refusals)('%s is refused with 400 and runs nothing', async (_name, tamper) => {
    const { shop, events } = await webhookShop()
    const { order, paymentId } = await paidAtTill(shop)
    const reply = await post(`${shop.origin}/pay/webhooks`, tamper(signEvent(eventOf('payment.succeeded', order.id, paymentId))))
    expect(reply.status).toBe(400)
    expect(reply.json()).toEqual({ code: 'invalid_signature', message: expect.stringMatching(/webhook/) })
    expect(events).toEqual([])
    expect(shop.fulfilled).toEqual([])
    expect(order.paid).toBeUndefined()
  })

  test.each([
    ['more than 5 minutes old', { at: NOW - 301_000 }],
    ['more than 5 minutes in the future', { at: NOW + 301_000 }],
    ['a day old (a replay)', { at: NOW - 86_400_000 }],
    ['signed with another secret', { secrets: [newSecret()] }],
  ])('a delivery %s is refused with 400 and runs nothing', async (_name, options) => {
    const { shop, events } = await webhookShop()
    const { order, paymentId } = await paidAtTill(shop)
    const reply = await deliver(shop, eventOf('payment.succeeded', order.id, paymentId), options)
    expect(reply.status).toBe(400)
    expect(reply.json()).toMatchObject({ code: 'invalid_signature' })
    expect(events).toEqual([])
    expect(shop.fulfilled).toEqual([])
  })

  test('during a rotation, deliveries signed with either secret, or both, are accepted', async () => {
    const fresh = newSecret()
    const { shop, events } = await webhookShop({ webhookSecret: [fresh, SECRET] })
    for (const secrets of [[fresh], [SECRET], [fresh, SECRET], [newSecret(), SECRET]]) {
      expect((await deliver(shop, eventOf('payment.processing', 'ord_x', 'pay_x'), { secrets })).status).toBe(200)
    }
    expect((await deliver(shop, eventOf('payment.processing', 'ord_x', 'pay_x'), { secrets: [newSecret()] })).status).toBe(400)
    expect(events).toHaveLength(4)
  })

  test('a router with one secret accepts a delivery that carries several signatures, one of them its own', async () => {
    const { shop, events } = await webhookShop()
    expect((await deliver(shop, eventOf('payment.processing', 'ord_x', 'pay_x'), { secrets: [newSecret(), SECRET] })).status).toBe(200)
    expect(events).toHaveLength(1)
  })
})

describe('POST /webhooks: processing', () => {
  test('a redelivery of the same webhook-id answers 200 and runs nothing again, even re-signed later or concurrent', async () => {
    const { shop, events } = await webhookShop()
    const { order, paymentId } = await paidAtTill(shop)
    const event = eventOf('payment.succeeded', order.id, paymentId)

    const concurrent = await Promise.all([deliver(shop, event), deliver(shop, event), deliver(shop, event)])
    const later = await deliver(shop, event, { at: NOW + 60_000 })

    for (const reply of [...concurrent, later]) expect(reply.status).toBe(200)
    expect([...concurrent, later].filter((reply) => reply.json().duplicate === true)).toHaveLength(3)
    expect(events).toEqual([event])
    expect(shop.fulfilled).toEqual([{ orderId: order.id, paymentId }])
  })

  test('a payment.succeeded body is not proof: an order whose payment Till still reports pending is not fulfilled', async () => {
    const { shop, events } = await webhookShop()
    const { order, paymentId } = await pendingOrder(shop)

    expect((await deliver(shop, eventOf('payment.succeeded', order.id, paymentId))).status).toBe(200)
    expect(shop.fulfilled).toEqual([])
    expect(order.paid).toBeUndefined()
    expect(events).toHaveLength(1)

    // When the payment does succeed, Till's own event (a new id) fulfils it.
    await till.simulate(paymentId, 'succeeded')
    expect((await deliver(shop, eventOf('payment.succeeded', order.id, paymentId))).status).toBe(200)
    expect(shop.fulfilled).toEqual([{ orderId: order.id, paymentId }])
  })

  test('the webhook and the return page racing fulfil the order exactly once', async () => {
    const { shop } = await webhookShop()
    const { order, paymentId } = await paidAtTill(shop)

    const [deliveries, returns] = await Promise.all([
      Promise.all(Array.from({ length: 4 }, () => deliver(shop, eventOf('payment.succeeded', order.id, paymentId)))),
      Promise.all(Array.from({ length: 6 }, () => verify(shop, order, paymentId))),
    ])

    for (const reply of deliveries) expect(reply.status).toBe(200)
    for (const reply of returns) expect(reply).toMatchObject({ status: 'succeeded', isFinal: true })
    expect(shop.fulfilled).toEqual([{ orderId: order.id, paymentId }])
  })

  test('onPaid and onStatus are told a webhook read the status that fulfilled the order', async () => {
    const sources: string[] = []
    const { shop } = await webhookShop({
      onStatus: (_order, _paymentId, status, source) => void sources.push(`${status.status} ${source}`),
      onPaid: (_order, _paymentId, source) => void sources.push(`paid ${source}`),
    })
    const { order, paymentId } = await paidAtTill(shop)
    expect((await deliver(shop, eventOf('payment.succeeded', order.id, paymentId))).status).toBe(200)
    expect(sources).toEqual(['succeeded webhook', 'paid webhook'])
  })

  test('whichever comes first, the other finds the order fulfilled', async () => {
    const { shop } = await webhookShop()
    const first = await paidAtTill(shop)
    await deliver(shop, eventOf('payment.succeeded', first.order.id, first.paymentId))
    expect(await verify(shop, first.order, first.paymentId)).toMatchObject({ status: 'succeeded' })

    const second = await paidAtTill(shop)
    expect(await verify(shop, second.order, second.paymentId)).toMatchObject({ status: 'succeeded' })
    expect((await deliver(shop, eventOf('payment.succeeded', second.order.id, second.paymentId))).status).toBe(200)

    expect(shop.fulfilled).toEqual([
      { orderId: first.order.id, paymentId: first.paymentId },
      { orderId: second.order.id, paymentId: second.paymentId },
    ])
  })

  test('a succeeded payment that is not the order’s payment fulfils nothing and is reported', async () => {
    const { shop } = await webhookShop()
    const { order, paymentId: own } = await pendingOrder(shop)
    const other = await paidAtTill(shop)

    const mismatched = await deliver(shop, eventOf('payment.succeeded', order.id, other.paymentId))
    const unknown = await deliver(shop, eventOf('payment.succeeded', 'ord_nobody', other.paymentId))

    expect(mismatched.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(shop.fulfilled).toEqual([])
    expect(order.paid).toBeUndefined()
    expect(order.paymentId).toBe(own)
    expect(shop.errors).toEqual([
      expect.objectContaining({ reason: 'payment_mismatch', paymentId: other.paymentId, referenceId: order.id, orderPaymentId: own }),
      expect.objectContaining({ reason: 'order_not_found', paymentId: other.paymentId, referenceId: 'ord_nobody' }),
    ])
    expect(shop.errors[0]).toBeInstanceOf(UnmatchedPaymentError)
  })

  test('Till unreachable is a 502, and the id is not remembered: Till’s retry is processed', async () => {
    const webhookIds = memoryWebhookIdStore({ now })
    const online = await webhookShop({ webhookIds })
    const { order, paymentId } = await paidAtTill(online.shop)
    const offlineClient = new TillClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: till.account.apiKey,
      merchantId: till.account.merchantId,
      maxRetries: 0,
    })
    const offline = await webhookShop({ webhookIds, till: offlineClient })
    offline.shop.orders.set(order.id, order)
    const event = eventOf('payment.succeeded', order.id, paymentId)

    const failed = await deliver(offline.shop, event)
    expect(failed.status).toBe(502)
    expect(failed.json()).toMatchObject({ code: 'payment_service_error' })
    expect(offline.shop.errors).toHaveLength(1)
    expect(offline.events).toEqual([])
    expect(await webhookIds.seen(event.id)).toBe(false)
    expect(order.paid).toBeUndefined()

    const retried = await deliver(online.shop, event, { at: NOW + 5_000 })
    expect(retried.status).toBe(200)
    expect(retried.json()).toEqual({ received: true })
    expect(online.shop.fulfilled).toEqual([{ orderId: order.id, paymentId }])
    expect(await webhookIds.seen(event.id)).toBe(true)
    await offlineClient.close()
  })

  test('an onEvent that throws is a 500 and is not remembered, so the redelivery runs it again; the order is fulfilled once', async () => {
    let calls = 0
    const { shop } = await webhookShop({
      onEvent: () => {
        calls += 1
        if (calls === 1) throw new Error('queue down')
      },
    })
    const { order, paymentId } = await paidAtTill(shop)
    const event = eventOf('payment.succeeded', order.id, paymentId)
    expect((await deliver(shop, event)).status).toBe(500)
    expect((await deliver(shop, event)).status).toBe(200)
    expect((await deliver(shop, event)).json()).toEqual({ received: true, duplicate: true })
    expect(calls).toBe(2)
    expect(shop.fulfilled).toEqual([{ orderId: order.id, paymentId }])
    expect(shop.errors).toEqual([new Error('queue down')])
  })

  test('other event types are acknowledged and passed to onEvent without touching the order', async () => {
    const { shop, events } = await webhookShop()
    const { order, paymentId } = await pendingOrder(shop)
    await till.simulate(paymentId, 'failed')
    const event = eventOf('payment.failed', order.id, paymentId)
    expect((await deliver(shop, event)).json()).toEqual({ received: true })
    expect(events).toEqual([event])
    expect(order.paid).toBeUndefined()
    expect(shop.fulfilled).toEqual([])
  })

  test('a transfer.unapplied event reaches onEvent, typed, and fulfils nothing even when it names the order’s payment', async () => {
    const { shop, events } = await webhookShop()
    const { order, paymentId } = await pendingOrder(shop)
    const payment = eventOf('payment.expired', order.id, paymentId).data
    const event: WebhookEvent = {
      id: `evt_${randomUUID()}`,
      type: 'transfer.unapplied',
      createdAt: new Date(NOW).toISOString(),
      data: {
        id: `eip155:8453/0x${'ab'.repeat(32)}`,
        transaction: { networkId: 'eip155:8453', hash: `0x${'ab'.repeat(32)}`, logIndex: 4 },
        from: 'eip155:8453:0x52908400098527886E0F7030069857D2E4169EE7',
        to: 'eip155:8453:0x8ba1f109551bD432803012645Ac136ddd64DBA72',
        tokenAmount: { unit: 'caip19/eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', value: '15000000', display: null },
        reason: 'payment_expired',
        paymentId,
        recordedAt: new Date(NOW).toISOString(),
        payment,
      },
    }
    expect((await deliver(shop, event)).json()).toEqual({ received: true })
    expect(events).toEqual([event])
    expect(order.paid).toBeUndefined()
    expect(shop.fulfilled).toEqual([])
    expect(shop.errors).toEqual([])
  })

  test('an event type newer than the package is acknowledged (so Till does not disable the endpoint) and ignored', async () => {
    const { shop, events } = await webhookShop()
    const event = { ...eventOf('payment.processing', 'ord_x', 'pay_x'), type: 'payment.refunded' }
    const reply = await post(`${shop.origin}/pay/webhooks`, sign(JSON.stringify(event), { id: event.id }))
    expect(reply.status).toBe(200)
    expect(reply.json()).toEqual({ received: true, ignored: true })
    expect(events).toEqual([])
  })

  test('a signed body that is not a WebhookEvent is reported and acknowledged, so Till never disables the endpoint', async () => {
    const { shop, events } = await webhookShop()
    const event = eventOf('payment.succeeded', 'ord_x', 'pay_x')
    const broken = { ...event, data: { ...event.data, paymentId: undefined } }
    const reply = await post(`${shop.origin}/pay/webhooks`, sign(JSON.stringify(broken), { id: event.id }))
    expect(reply.status).toBe(200)
    expect(reply.json()).toEqual({ received: true, ignored: true })
    const notJson = await post(`${shop.origin}/pay/webhooks`, sign('{"id":', { id: event.id }))
    expect(notJson.status).toBe(400)
    expect(events).toEqual([])
    expect(shop.errors).toHaveLength(1)
  })

  test('a JSON body parser mounted before the router is a clear 500, never a check of a re-serialised body', async () => {
    const { shop, events } = await webhookShop({}, { before: [express.json()] })
    const { order, paymentId } = await paidAtTill(shop)
    const reply = await deliver(shop, eventOf('payment.succeeded', order.id, paymentId))
    expect(reply.status).toBe(500)
    expect(reply.json<{ message: string }>().message).toMatch(/mount the Till router before express\.json\(\)/)
    expect(shop.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/already parsed/) })])
    expect(events).toEqual([])
    expect(shop.fulfilled).toEqual([])
    // The checkout route itself still works behind the parser.
    expect(order.paymentId).toBe(paymentId)
  })
})

describe('webhookRouter on its own', () => {
  const servers: Server[] = []
  afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))))

  test('mounted apart from payRouter, with a custom referenceId found through orders.findByReferenceId', async () => {
    const referenceId = (order: ShopOrder) => `shop7-${order.id}`
    const { shop } = await webhookShop({ referenceId }, { store: (orders) => memoryOrderStore(orders, { referenceId }) })
    const { order, paymentId } = await paidAtTill(shop)
    expect(await till.payment(paymentId)).toMatchObject({ referenceId: `shop7-${order.id}` })

    const fulfilled: string[] = []
    const app = express()
    app.use(
      '/till/events',
      webhookRouter<ShopOrder>({
        till: { baseUrl: till.baseUrl, apiKey: till.account.apiKey, merchantId: till.account.merchantId },
        orders: shop.store,
        referenceId,
        onPaid: (paid) => void fulfilled.push(paid.id),
        webhookSecret: SECRET,
        now,
      }),
    )
    const server = app.listen(0, '127.0.0.1')
    servers.push(server)
    await once(server, 'listening')
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

    const reply = await post(`${origin}/till/events`, signEvent(eventOf('payment.succeeded', `shop7-${order.id}`, paymentId)))
    expect(reply.status).toBe(200)
    expect(fulfilled).toEqual([order.id])
    const refused = await post(`${origin}/till/events`, { ...signEvent(eventOf('payment.succeeded', order.id, paymentId)), body: '{}' })
    expect(refused.status).toBe(400)
  })
})

function without(headers: Record<string, string>, name: string): Record<string, string> {
  const { [name]: _dropped, ...rest } = headers
  return rest
}
