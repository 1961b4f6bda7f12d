// GET /pay/verify: the return page's check. Only the status Till reports for the order's own payment counts,
// and an order is fulfilled exactly once however often the page is loaded or polled.
import { describe, expect, test } from 'vitest'
import type { VerifyReply } from '@till/contract'
import { call, postJson, useTill, type Shop } from '../test/fixtures.ts'

const till = useTill()

async function pendingOrder(shop: Shop) {
  const order = shop.order(1500n)
  const reply = await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id })
  const { paymentId } = reply.json<{ paymentId: string }>()
  return { order, paymentId }
}

const verify = async (shop: Shop, query: string) => {
  const reply = await call(`${shop.origin}/pay/verify?${query}`)
  return { status: reply.status, body: reply.json<VerifyReply>() }
}

describe('GET /verify', () => {
  test('reports a pending payment as not final, with the polling interval Till suggested', async () => {
    const shop = await till.shop()
    const { order, paymentId } = await pendingOrder(shop)
    expect(await verify(shop, `order=${order.id}&payment_id=${paymentId}`)).toEqual({
      status: 200,
      body: { status: 'pending', isFinal: false, pollInMs: 2000, orderId: order.id, paymentId },
    })
    expect(shop.fulfilled).toEqual([])
  })

  test('a succeeded payment fulfils the order once, however many times the return page loads or polls', async () => {
    const shop = await till.shop()
    const { order, paymentId } = await pendingOrder(shop)
    await till.simulate(paymentId, 'processing')
    expect((await verify(shop, `order=${order.id}&payment_id=${paymentId}`)).body).toMatchObject({ status: 'processing', isFinal: false })
    await till.simulate(paymentId, 'succeeded')

    const replies = await Promise.all(Array.from({ length: 12 }, () => verify(shop, `order=${order.id}&payment_id=${paymentId}`)))
    replies.push(await verify(shop, `order=${order.id}&payment_id=${paymentId}`))

    for (const reply of replies) expect(reply.body).toMatchObject({ status: 'succeeded', isFinal: true, paymentId })
    expect(shop.fulfilled).toEqual([{ orderId: order.id, paymentId }])
    expect(order.paid).toBe(true)
  })

  test.each(['failed', 'expired'] as const)('a %s payment is final and fulfils nothing', async (outcome) => {
    const shop = await till.shop()
    const { order, paymentId } = await pendingOrder(shop)
    await till.simulate(paymentId, outcome)
    expect((await verify(shop, `order=${order.id}&payment_id=${paymentId}`)).body).toMatchObject({ status: outcome, isFinal: true })
    expect(shop.fulfilled).toEqual([])
    expect(order.paid).toBeUndefined()
  })

  test('a payment_id that is not the order’s payment is a mismatch, even when that payment succeeded', async () => {
    const shop = await till.shop()
    const { order } = await pendingOrder(shop)
    const other = await pendingOrder(shop)
    await till.simulate(other.paymentId, 'succeeded')

    for (const query of [
      `order=${order.id}&payment_id=${other.paymentId}`,
      `order=${order.id}`,
      `order=${order.id}&payment_id=pay_forged`,
    ]) {
      expect((await verify(shop, query)).body).toEqual({ status: 'mismatch', isFinal: true, pollInMs: 2000, orderId: order.id })
    }
    expect(shop.fulfilled).toEqual([])
  })

  test('the payment of an earlier, failed attempt is a mismatch once the order has a new payment', async () => {
    const shop = await till.shop()
    const { order, paymentId: first } = await pendingOrder(shop)
    await till.simulate(first, 'failed')
    await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id })
    expect((await verify(shop, `order=${order.id}&payment_id=${first}`)).body.status).toBe('mismatch')
  })

  test('onStatus sees every status read from Till, before onPaid, which is told the return page fulfilled the order', async () => {
    const seen: string[] = []
    const shop = await till.shop({
      onStatus: (order, paymentId, status, source) => void seen.push(`${order.id} ${paymentId} ${status.status} ${source}`),
      onPaid: (order, paymentId, source) => void seen.push(`paid ${order.id} ${paymentId} ${source}`),
    })
    const { order, paymentId } = await pendingOrder(shop)
    await verify(shop, `order=${order.id}&payment_id=${paymentId}`)
    await till.simulate(paymentId, 'succeeded')
    await verify(shop, `order=${order.id}&payment_id=${paymentId}`)
    await verify(shop, `order=${order.id}&payment_id=pay_forged`)
    expect(seen).toEqual([
      `${order.id} ${paymentId} pending return`,
      `${order.id} ${paymentId} succeeded return`,
      `paid ${order.id} ${paymentId} return`,
    ])
  })

  test('an onStatus that throws is reported and changes nothing else', async () => {
    const shop = await till.shop({
      onStatus: () => {
        throw new Error('display down')
      },
    })
    const { order, paymentId } = await pendingOrder(shop)
    await till.simulate(paymentId, 'succeeded')
    expect((await verify(shop, `order=${order.id}&payment_id=${paymentId}`)).body.status).toBe('succeeded')
    expect(shop.fulfilled).toEqual([{ orderId: order.id, paymentId }])
    expect(shop.errors).toEqual([new Error('display down')])
  })

  test('an unknown order is a 404, a missing one a 400 with issues', async () => {
    const shop = await till.shop()
    expect(await verify(shop, 'order=ord_nope&payment_id=pay_x')).toMatchObject({ status: 404, body: { code: 'order_not_found' } })
    const missing = await call(`${shop.origin}/pay/verify?payment_id=pay_x`)
    expect(missing.status).toBe(400)
    expect(missing.json()).toMatchObject({ code: 'invalid_request', issues: [{ field: 'order' }] })
  })

  test('a fulfilment that throws leaves the order paid, is reported, and does not run again', async () => {
    let calls = 0
    const shop = await till.shop({
      onPaid: () => {
        calls += 1
        throw new Error('mail server down')
      },
    })
    const { order, paymentId } = await pendingOrder(shop)
    await till.simulate(paymentId, 'succeeded')
    expect((await verify(shop, `order=${order.id}&payment_id=${paymentId}`)).body.status).toBe('succeeded')
    expect((await verify(shop, `order=${order.id}&payment_id=${paymentId}`)).body.status).toBe('succeeded')
    expect(calls).toBe(1)
    expect(order.paid).toBe(true)
    expect(shop.errors).toEqual([new Error('mail server down')])
  })

  test('Till being unreachable is a 502 the page can retry, not a status', async () => {
    const shop = await till.shop()
    const { order, paymentId } = await pendingOrder(shop)
    const offline = await till.shop({
      till: { baseUrl: 'http://127.0.0.1:9', apiKey: till.account.apiKey, merchantId: till.account.merchantId },
    })
    offline.orders.set(order.id, order)
    const reply = await verify(offline, `order=${order.id}&payment_id=${paymentId}`)
    expect(reply).toMatchObject({ status: 502, body: { code: 'payment_service_error' } })
    expect(offline.errors).toHaveLength(1)
  })
})
