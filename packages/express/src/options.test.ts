// A wrong router configuration stops the merchant's server at start-up, saying what to fix.
import { describe, expect, test } from 'vitest'
import { memoryOrderStore, type PayableOrder } from './orders.ts'
import { reconciler } from './reconcile.ts'
import { payRouter } from './router.ts'
import { webhookRouter } from './webhooks.ts'

const till = { baseUrl: 'http://127.0.0.1:4000', apiKey: 'till_sk_test_x', merchantId: 'mer_x' }
const orders = memoryOrderStore(new Map())
const SECRET = `whsec_${Buffer.from('a signing secret of 32 bytes....').toString('base64')}`

describe('payRouter options', () => {
  test('builds a router from valid options', () => {
    expect(typeof payRouter({ till, orders, returnUrl: 'https://shop.example/return' })).toBe('function')
  })

  test.each([
    [{ ...till, apiKey: '' }, /the `till` option is not valid: TillClient: apiKey is required: a non-empty string/],
    [{ ...till, apiKey: undefined }, /the `till` option is not valid: TillClient: apiKey is required/],
    [{ ...till, merchantId: undefined }, /till\.merchantId is required/],
    [{ ...till, merchantId: '' }, /till\.merchantId is required/],
    [{ ...till, baseUrl: 'localhost:4000' }, /the `till` option is not valid: TillClient: baseUrl must use http or https/],
    [{ ...till, payVersion: '2020-01-01' }, /the `till` option is not valid: .*payVersion "2020-01-01"/],
  ])('refuses %o', (settings, message) => {
    expect(() => payRouter({ till: settings as typeof till, orders, returnUrl: 'https://shop.example/return' })).toThrow(message)
  })

  test('refuses a return URL that is not absolute', () => {
    expect(() => payRouter({ till, orders, returnUrl: '/return' })).toThrow(/returnUrl must be an absolute URL/)
  })

  test('never puts the API key in a configuration error', () => {
    expect(() => payRouter({ till: { ...till, baseUrl: 'nope' }, orders, returnUrl: 'https://shop.example/return' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('till_sk_test_x') }),
    )
  })

  test('with a webhookSecret, builds a router that also answers POST /webhooks', () => {
    const router = payRouter({ till, orders, returnUrl: 'https://shop.example/return', webhookSecret: SECRET })
    expect(router.stack.some((layer) => layer.route?.path === '/webhooks')).toBe(true)
    expect(
      payRouter({ till, orders, returnUrl: 'https://shop.example/return' }).stack.some((layer) => layer.route?.path === '/webhooks'),
    ).toBe(false)
  })

  test.each([
    ['an empty secret', ''],
    ['a secret that is not base64', 'whsec_not*base64!'],
    ['no secret in a list', []],
    ['a list with a non-string', [SECRET, 42]],
  ])('refuses %s as webhookSecret, without echoing it', (_name, webhookSecret) => {
    const build = () => payRouter({ till, orders, returnUrl: 'https://shop.example/return', webhookSecret: webhookSecret as string })
    expect(build).toThrow(/webhookSecret/)
    expect(build).toThrow(expect.objectContaining({ message: expect.not.stringContaining('not*base64') }))
  })

  test('webhookRouter needs a webhookSecret', () => {
    expect(() => webhookRouter({ till, orders } as Parameters<typeof webhookRouter>[0])).toThrow(/webhookRouter: webhookSecret is required/)
  })

  test('a custom referenceId with webhooks needs orders.findByReferenceId', () => {
    const { findByReferenceId: _unused, ...withoutLookup } = memoryOrderStore(new Map<string, PayableOrder>())
    const referenceId = (order: PayableOrder) => `ref-${order.id}`
    expect(() => webhookRouter({ till, orders: withoutLookup, referenceId, webhookSecret: SECRET })).toThrow(/orders\.findByReferenceId/)
    expect(() => webhookRouter({ till, orders: withoutLookup, webhookSecret: SECRET })).not.toThrow()
    expect(() => webhookRouter({ till, orders, referenceId, webhookSecret: SECRET })).not.toThrow()
  })

  test('reconciler needs orders.listAwaitingPayment and sensible numbers', () => {
    const { listAwaitingPayment: _unused, ...withoutList } = memoryOrderStore(new Map<string, PayableOrder>())
    expect(() => reconciler({ till, orders: withoutList })).toThrow(/reconciler: orders\.listAwaitingPayment\(limit\) is required/)
    expect(() => reconciler({ till, orders, intervalMs: 0 })).toThrow(/intervalMs/)
    expect(() => reconciler({ till, orders, batchSize: 2.5 })).toThrow(/batchSize/)
    expect(() => reconciler({ till: { ...till, merchantId: '' }, orders })).toThrow(/reconciler: till\.merchantId is required/)
    expect(typeof reconciler({ till, orders }).runOnce).toBe('function')
  })
})
