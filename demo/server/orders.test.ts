// The order book keeps every payment attempt of an order with the status last read from Till, and what
// fulfilled the order; the Orders page shows them.
import type { Refund } from '@till/contract'
import { describe, expect, test } from 'vitest'
import { formatTokens, orderBook, orderView } from './orders.ts'

const AT = (seconds: number) => new Date(Date.UTC(2026, 10, 26, 10, 0, seconds))

/** A full refund of a €12.50 payment, as Till's GET /v1/refunds/{id} shows it. */
const refund = (paymentId: string, changes: Partial<Refund> = {}): Refund => ({
  id: 'rfd_1',
  paymentId,
  unappliedTransferId: null,
  amount: { unit: 'iso4217/EUR', value: '1250', display: { assetSymbol: 'EUR', assetName: 'Euro', decimals: 2 } },
  tokenAmount: {
    unit: 'caip19/eip155:31337/erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3',
    value: '13552500',
    display: { assetSymbol: 'USDC', assetName: 'USD Coin (local)', decimals: 6 },
  },
  status: 'awaiting_destination',
  reason: 'Refunded from the demo shop',
  destination: null,
  claimUrl: 'https://till.example/checkout/refunds/rfd_1/claim?token=c',
  payUrl: 'https://till.example/checkout/refunds/rfd_1/pay?token=p',
  reference: '0x0123456789abcdef0123456789abcdef',
  transaction: null,
  createdAt: AT(0).toISOString(),
  updatedAt: AT(0).toISOString(),
  ...changes,
})

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

  test('a refund of the order’s payment is listed with its links; a later read moves it on, an older one does not', async () => {
    const book = orderBook()
    const order = book.place([{ productId: 'sencha', quantity: 1 }], 'https')
    await book.store.attachPayment(order.id, 'pay_1')
    await book.store.markPaid(order.id, 'pay_1')

    expect(book.recordRefund(refund('pay_1'), AT(1))).toBe(true)
    expect(orderView(order).refunds).toEqual([
      {
        refundId: 'rfd_1',
        paymentId: 'pay_1',
        status: 'awaiting_destination',
        amount: { currency: 'EUR', value: '1250', formatted: '€12.50' },
        tokens: '13.5525 USDC',
        claimUrl: 'https://till.example/checkout/refunds/rfd_1/claim?token=c',
        payUrl: 'https://till.example/checkout/refunds/rfd_1/pay?token=p',
        createdAt: AT(0).toISOString(),
        statusAt: AT(1).toISOString(),
      },
    ])
    // Its webhook's created event, read after the shop recorded the refund itself, changes nothing.
    expect(book.recordRefund(refund('pay_1'), AT(2))).toBe(false)
    expect(book.recordRefund(refund('pay_1', { status: 'succeeded', claimUrl: null, payUrl: null }), AT(3))).toBe(true)
    expect(book.recordRefund(refund('pay_1', { status: 'ready', claimUrl: null }), AT(4))).toBe(false)
    expect(orderView(order).refunds).toEqual([
      expect.objectContaining({ status: 'succeeded', claimUrl: null, payUrl: null, statusAt: AT(3).toISOString() }),
    ])
  })

  test('a refund of no order’s payment is not recorded', () => {
    const book = orderBook()
    book.place([{ productId: 'sencha', quantity: 1 }], 'https')
    expect(book.recordRefund(refund('pay_elsewhere'))).toBe(false)
    expect(book.recordRefund(refund('pay_elsewhere', { paymentId: null }))).toBe(false)
  })

  test.each([
    ['13552500', 6, '13.5525 USDC'],
    ['1000000', 6, '1 USDC'],
    ['5', 6, '0.000005 USDC'],
    ['7', 0, '7 USDC'],
  ])('words %s minor units of a %i-decimal token', (value, decimals, words) => {
    const unit = 'caip19/eip155:1/erc20:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
    expect(formatTokens({ unit, value, display: { assetSymbol: 'USDC', assetName: 'USD Coin', decimals } })).toBe(words)
  })
})
