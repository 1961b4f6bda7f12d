// cancelOrderPayment: the shop calls off an order's open payment at Till, or learns what became of it.
import { describe, expect, test } from 'vitest'
import { checkout, type Shop, type ShopOrder, useTill } from '../test/fixtures.ts'
import { cancelOrderPayment } from './cancel.ts'

const till = useTill()

/** The shop's options, as its router was given them; the preview's merchant view names `cancelled`. */
const optionsOf = (shop: Shop, statuses: string[] = []) => ({
  till: {
    baseUrl: till.baseUrl,
    apiKey: till.account.apiKey,
    merchantId: till.account.merchantId,
    payVersion: '2026-02-19.preview' as const,
  },
  orders: shop.store,
  onStatus: (_order: ShopOrder, _paymentId: string, status: { status: string }) => void statuses.push(status.status),
  onPaid: (order: ShopOrder, paymentId: string) => void shop.fulfilled.push({ orderId: order.id, paymentId }),
  onError: (error: unknown) => void shop.errors.push(error),
})

describe('cancelOrderPayment', () => {
  test('cancels the order’s open payment at Till, and again harmlessly', async () => {
    const shop = await till.shop()
    const { order, paymentId } = await checkout(shop)
    const statuses: string[] = []
    expect(await cancelOrderPayment(optionsOf(shop, statuses), order.id)).toEqual({ outcome: 'cancelled', paymentId })
    expect(await cancelOrderPayment(optionsOf(shop, statuses), order.id)).toEqual({ outcome: 'cancelled', paymentId })
    expect(statuses).toEqual(['cancelled', 'cancelled'])
    expect(await till.payment(paymentId)).toMatchObject({ status: 'cancelled', isTerminal: true })
    // Its checkout page sends the buyer back to the shop's return page, as for any payment that did not succeed.
    expect(await till.redirectOf(paymentId)).toMatch(/payment_id=/)
    expect(shop.errors).toEqual([])
  })

  test('finds a payment that succeeded meanwhile not cancellable, and fulfils its order once', async () => {
    const shop = await till.shop()
    const { order, paymentId } = await checkout(shop)
    await till.simulate(paymentId, 'succeeded')
    expect(await cancelOrderPayment(optionsOf(shop), order.id)).toEqual({ outcome: 'not_cancellable', paymentId, status: 'succeeded' })
    expect(shop.fulfilled).toEqual([{ orderId: order.id, paymentId }])
    expect(await cancelOrderPayment(optionsOf(shop), order.id)).toEqual({ outcome: 'no_payment' })
  })

  test('has nothing to cancel for an order without a payment, or no such order', async () => {
    const shop = await till.shop()
    const order = shop.order(900n)
    expect(await cancelOrderPayment(optionsOf(shop), order.id)).toEqual({ outcome: 'no_payment' })
    expect(await cancelOrderPayment(optionsOf(shop), 'no-such-order')).toEqual({ outcome: 'no_payment' })
  })
})
