// POST /pay/checkout: the merchant backend creates the payment of one of its own orders.
import { describe, expect, test } from 'vitest'
import { call, postJson, RETURN_URL, useTill } from '../test/fixtures.ts'

const till = useTill()

describe('POST /checkout', () => {
  test('creates the payment for the order, with the amount from the order store and the order as referenceId', async () => {
    const shop = await till.shop()
    const order = shop.order(1999n)

    const reply = await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id })

    expect(reply.status).toBe(201)
    const body = reply.json<{ paymentId: string; gatewayUrl: string }>()
    expect(Object.keys(body).sort()).toEqual(['gatewayUrl', 'paymentId'])
    expect(body.gatewayUrl).toMatch(new RegExp(`/${body.paymentId}$`))
    expect(reply.headers.get('cache-control')).toBe('no-store')
    expect(order.paymentId).toBe(body.paymentId)
    expect(await till.payment(body.paymentId)).toMatchObject({
      referenceId: order.id,
      fiatAmount: { unit: 'iso4217/EUR', value: '1999' },
      status: 'requires_action',
    })
    // Once paid, the checkout page sends the buyer back to the order's return URL.
    await till.simulate(body.paymentId, 'succeeded')
    expect(await till.redirectOf(body.paymentId)).toBe(`${RETURN_URL}?order=${order.id}&payment_id=${body.paymentId}`)
  })

  test('ignores any amount the browser sends', async () => {
    const shop = await till.shop()
    const order = shop.order(250_000n, 'JPY')
    const reply = await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id, amount: { unit: 'iso4217/EUR', value: '1' } })
    expect(reply.status).toBe(201)
    expect(await till.payment(reply.json<{ paymentId: string }>().paymentId)).toMatchObject({
      fiatAmount: { unit: 'iso4217/JPY', value: '250000' },
    })
  })

  test('a second click while the payment is open returns the same payment', async () => {
    const shop = await till.shop()
    const order = shop.order(500n)
    const first = await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id })
    const [second, third] = await Promise.all([
      postJson(`${shop.origin}/pay/checkout`, { orderId: order.id }),
      postJson(`${shop.origin}/pay/checkout`, { orderId: order.id }),
    ])
    expect(second.status).toBe(200)
    expect(third.status).toBe(200)
    expect(second.json()).toEqual(first.json())
    expect(third.json()).toEqual(first.json())
  })

  test('without JavaScript the fallback form is answered with a 303 to the checkout page', async () => {
    const shop = await till.shop()
    const order = shop.order(1200n)
    const reply = await call(`${shop.origin}/pay/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ orderId: order.id }).toString(),
    })
    expect(reply.status).toBe(303)
    expect(reply.headers.get('location')).toMatch(new RegExp(`/${order.paymentId}$`))
  })

  test('a form post for an unknown order gets a readable page, not JSON', async () => {
    const shop = await till.shop()
    const reply = await call(`${shop.origin}/pay/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'orderId=%3Cscript%3E',
    })
    expect(reply.status).toBe(404)
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/)
    expect(reply.text).toContain('There is no such order.')
  })

  test.each([
    ['no order id', {}, 400, 'invalid_request'],
    ['an empty order id', { orderId: '' }, 400, 'invalid_request'],
    ['an order id that is not a string', { orderId: 42 }, 400, 'invalid_request'],
    ['an unknown order', { orderId: 'ord_nope' }, 404, 'order_not_found'],
  ])('%s gets the error body', async (_name, body, status, code) => {
    const shop = await till.shop()
    const reply = await postJson(`${shop.origin}/pay/checkout`, body)
    expect(reply.status).toBe(status)
    expect(reply.json()).toMatchObject({ code, message: expect.stringMatching(/\S/) })
    if (status === 400) expect(reply.json<{ issues: { field: string }[] }>().issues[0]?.field).toBe('orderId')
  })

  test('a body that is not JSON or a form is refused with 415, broken JSON with 400', async () => {
    const shop = await till.shop()
    const plain = await call(`${shop.origin}/pay/checkout`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'ord_1' })
    expect(plain.status).toBe(415)
    expect(plain.json()).toMatchObject({ code: 'invalid_request' })
    const broken = await call(`${shop.origin}/pay/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"orderId":',
    })
    expect(broken.status).toBe(400)
    expect(broken.json()).toMatchObject({ code: 'invalid_request' })
  })

  test('a paid order is not paid again', async () => {
    const shop = await till.shop()
    const order = shop.order(800n)
    order.paid = true
    const reply = await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id })
    expect(reply.status).toBe(409)
    expect(reply.json()).toMatchObject({ code: 'order_already_paid' })
  })

  test('an order whose payment succeeded but whose buyer never returned is fulfilled, once, instead of paid twice', async () => {
    const shop = await till.shop()
    const order = shop.order(900n)
    const created = (await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id })).json<{ paymentId: string }>()
    await till.simulate(created.paymentId, 'succeeded')

    const again = await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id })
    const thrice = await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id })

    expect(again.status).toBe(409)
    expect(again.json()).toMatchObject({ code: 'order_already_paid' })
    expect(thrice.status).toBe(409)
    expect(shop.fulfilled).toEqual([{ orderId: order.id, paymentId: created.paymentId }])
  })

  test('after a payment failed, paying again creates a new payment for the order', async () => {
    const shop = await till.shop()
    const order = shop.order(700n)
    const first = (await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id })).json<{ paymentId: string }>()
    await till.simulate(first.paymentId, 'failed')
    const second = await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id })
    expect(second.status).toBe(201)
    expect(second.json<{ paymentId: string }>().paymentId).not.toBe(first.paymentId)
    expect(order.paymentId).toBe(second.json<{ paymentId: string }>().paymentId)
  })

  test('the return URLs can be chosen per order; Till disables the redirect when they are not HTTPS', async () => {
    const shop = await till.shop({ checkout: (_order, url) => ({ successUrl: url.replace('https:', 'http:'), errorUrl: url }) })
    const order = shop.order(300n)
    const reply = await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id })
    expect(reply.status).toBe(201)
    await till.simulate(order.paymentId ?? '', 'failed')
    expect(await till.redirectOf(order.paymentId ?? '')).toBeNull()
  })

  test('Till refusing the key is a 502 for the browser, which learns nothing of the key', async () => {
    const shop = await till.shop({
      till: { baseUrl: till.baseUrl, apiKey: 'till_sk_test_wrongwrongwrong', merchantId: till.account.merchantId },
    })
    const order = shop.order(100n)
    const reply = await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id })
    expect(reply.status).toBe(502)
    expect(reply.json()).toMatchObject({ code: 'payment_service_error' })
    expect(reply.text).not.toContain('wrongwrong')
    expect(reply.text).not.toContain(till.account.apiKey)
    expect(shop.errors).toHaveLength(1)
    expect(order.paymentId).toBeUndefined()
  })

  test('no answer of the router carries the API key', async () => {
    const shop = await till.shop()
    const order = shop.order(100n)
    const replies = [
      await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id }),
      await postJson(`${shop.origin}/pay/checkout`, { orderId: 'missing' }),
      await call(`${shop.origin}/pay/verify?order=${order.id}&payment_id=${order.paymentId}`),
    ]
    for (const reply of replies) {
      expect(reply.text).not.toContain(till.account.apiKey)
      expect([...reply.headers.values()].join('\n')).not.toContain(till.account.apiKey)
    }
  })
})
