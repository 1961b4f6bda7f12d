// The order book keeps every payment attempt of an order with the status last read from Till, and what
// fulfilled the order; the Orders page shows them.
import { describe, expect, test } from 'vitest'
import { orderBook, orderView } from './orders.ts'

const AT = (seconds: number) => new Date(Date.UTC(2026, 10, 26, 10, 0, seconds))

describe('the order book', () => {
  test('each new payment of an order is an attempt; Till replaying the open one is not', async () => {
    const book = orderBook()
    const order = book.place([{ productId: 'sencha', quantity: 2 }], 'https')
    await book.store.attachPayment(order.id, 'pay_1')
    await book.store.attachPayment(order.id, 'pay_1')
    await book.store.attachPayment(order.id, 'pay_2')
    expect(order.attempts.map((attempt) => [attempt.paymentId, attempt.status])).toEqual([
      ['pay_1', 'pending'],
      ['pay_2', 'pending'],
    ])
    expect(order.paymentId).toBe('pay_2')
  })

  test('a status further along the lifecycle replaces the last one; a late, older read does not', async () => {
    const book = orderBook()
    const order = book.place([{ productId: 'sencha', quantity: 1 }], 'https')
    await book.store.attachPayment(order.id, 'pay_1')
    expect(book.recordStatus(order.id, 'pay_1', 'processing', AT(1))).toBe(true)
    expect(book.recordStatus(order.id, 'pay_1', 'failed', AT(2))).toBe(true)
    expect(book.recordStatus(order.id, 'pay_1', 'pending', AT(3))).toBe(false)
    expect(book.recordStatus(order.id, 'pay_1', 'failed', AT(4))).toBe(false)
    expect(book.recordStatus(order.id, 'pay_unknown', 'succeeded', AT(5))).toBe(false)
    expect(order.attempts[0]).toMatchObject({ status: 'failed', statusAt: AT(2) })
  })

  test('the view lists every attempt oldest first, the fulfilment with its source, and line totals in minor units', async () => {
    const book = orderBook()
    const order = book.place([{ productId: 'sencha', quantity: 3 }], 'https')
    for (const [paymentId, status] of [
      ['pay_1', 'failed'],
      ['pay_2', 'expired'],
      ['pay_3', 'succeeded'],
    ] as const) {
      await book.store.attachPayment(order.id, paymentId)
      book.recordStatus(order.id, paymentId, status, AT(1))
    }
    await book.store.markPaid(order.id, 'pay_3')
    book.fulfil(order.id, 'pay_3', 'webhook', AT(2))

    const view = orderView(order)
    expect(view.attempts).toEqual([
      { paymentId: 'pay_1', startedAt: expect.any(String), status: 'failed', statusAt: AT(1).toISOString() },
      { paymentId: 'pay_2', startedAt: expect.any(String), status: 'expired', statusAt: AT(1).toISOString() },
      { paymentId: 'pay_3', startedAt: expect.any(String), status: 'succeeded', statusAt: AT(1).toISOString() },
    ])
    expect(view.fulfilments).toEqual([{ at: AT(2).toISOString(), paymentId: 'pay_3', by: 'webhook' }])
    expect(view.lines[0]?.lineTotal).toMatchObject({ value: '3750', formatted: '€37.50' })
    expect(view).toMatchObject({ paid: true, total: { value: '3750' } })
  })
})
