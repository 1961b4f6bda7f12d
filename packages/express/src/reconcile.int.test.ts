// reconciler().runOnce(): for shops without webhooks, the orders with an open payment are checked against
// Till, server-side, and the succeeded ones fulfilled on the return page's path, once.
import { TillClient } from '@till/client'
import type { VerifyReply } from '@till/contract'
import { describe, expect, test } from 'vitest'
import { call, checkout, type Shop, type ShopOrder, useTill } from '../test/fixtures.ts'
import { type ReconcilerOptions, reconciler } from './reconcile.ts'

const till = useTill()

/** A reconciler on the shop's own order store, reporting to the shop's records. */
const reconcilerOf = (shop: Shop, options: Partial<ReconcilerOptions<ShopOrder>> = {}) =>
  reconciler<ShopOrder>({
    till: { baseUrl: till.baseUrl, apiKey: till.account.apiKey, merchantId: till.account.merchantId },
    orders: shop.store,
    onPaid: (order, paymentId) => void shop.fulfilled.push({ orderId: order.id, paymentId }),
    onError: (error) => void shop.errors.push(error),
    ...options,
  })

const verify = async (shop: Shop, order: ShopOrder, paymentId: string) =>
  (await call(`${shop.origin}/pay/verify?order=${order.id}&payment_id=${paymentId}`)).json<VerifyReply>()

describe('reconciler', () => {
  test('runOnce fulfils, once, an order paid at Till whose buyer never came back', async () => {
    const shop = await till.shop()
    const paid = await checkout(shop)
    await till.simulate(paid.paymentId, 'succeeded')
    await checkout(shop)
    const failed = await checkout(shop)
    await till.simulate(failed.paymentId, 'failed')
    const reconcile = reconcilerOf(shop)

    expect(await reconcile.runOnce()).toEqual({ checked: 3, fulfilled: 1, failed: 0 })
    expect(shop.fulfilled).toEqual([{ orderId: paid.order.id, paymentId: paid.paymentId }])
    expect(paid.order.paid).toBe(true)

    // The paid order is no longer awaiting payment; the others are checked again, and nothing runs twice.
    expect(await reconcile.runOnce()).toEqual({ checked: 2, fulfilled: 0, failed: 0 })
    expect(await verify(shop, paid.order, paid.paymentId)).toMatchObject({ status: 'succeeded', isFinal: true })
    expect(shop.fulfilled).toHaveLength(1)
    expect(shop.errors).toEqual([])
  })

  test('two reconcilers (two processes) and the return page racing fulfil the order once', async () => {
    const shop = await till.shop()
    const { order, paymentId } = await checkout(shop)
    await till.simulate(paymentId, 'succeeded')

    const [first, second] = await Promise.all([
      reconcilerOf(shop).runOnce(),
      reconcilerOf(shop).runOnce(),
      verify(shop, order, paymentId),
      verify(shop, order, paymentId),
    ])

    expect(shop.fulfilled).toEqual([{ orderId: order.id, paymentId }])
    expect(first.fulfilled + second.fulfilled).toBeLessThanOrEqual(1)
  })

  test('a second runOnce while a run is under way shares it', async () => {
    const shop = await till.shop()
    const { paymentId } = await checkout(shop)
    await till.simulate(paymentId, 'succeeded')
    const reconcile = reconcilerOf(shop)
    const [first, second] = [reconcile.runOnce(), reconcile.runOnce()]
    expect(second).toBe(first)
    expect(await first).toEqual({ checked: 1, fulfilled: 1, failed: 0 })
  })

  test('Till unreachable: the run stops at the first failure, reports it once and changes nothing', async () => {
    const shop = await till.shop()
    const { order } = await checkout(shop)
    await checkout(shop)
    const offline = new TillClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: till.account.apiKey,
      merchantId: till.account.merchantId,
      maxRetries: 0,
    })

    expect(await reconcilerOf(shop, { till: offline }).runOnce()).toEqual({ checked: 0, fulfilled: 0, failed: 1 })
    expect(shop.errors).toHaveLength(1)
    expect(order.paid).toBeUndefined()
    await offline.close()
  })

  test('a payment Till does not know is reported and skipped; the other orders are still checked', async () => {
    const shop = await till.shop()
    const paid = await checkout(shop)
    await till.simulate(paid.paymentId, 'succeeded')
    const stale = shop.order(100n)
    await shop.store.attachPayment(stale.id, 'pay_unknown_to_till')

    expect(await reconcilerOf(shop).runOnce()).toEqual({ checked: 1, fulfilled: 1, failed: 1 })
    expect(shop.errors).toEqual([expect.objectContaining({ status: 404 })])
    expect(shop.fulfilled).toEqual([{ orderId: paid.order.id, paymentId: paid.paymentId }])
  })

  test('batchSize bounds a run to the most recently attached payments', async () => {
    const shop = await till.shop()
    const oldest = await checkout(shop)
    await till.simulate(oldest.paymentId, 'succeeded')
    await checkout(shop)
    await checkout(shop)

    expect(await reconcilerOf(shop, { batchSize: 2 }).runOnce()).toEqual({ checked: 2, fulfilled: 0, failed: 0 })
    expect(await reconcilerOf(shop, { batchSize: 3 }).runOnce()).toEqual({ checked: 3, fulfilled: 1, failed: 0 })
  })
})
