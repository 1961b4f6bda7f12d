// A wrong router configuration stops the merchant's server at start-up, saying what to fix.
import { describe, expect, test } from 'vitest'
import { memoryOrderStore } from './orders.ts'
import { payRouter } from './router.ts'

const till = { baseUrl: 'http://127.0.0.1:4000', apiKey: 'till_sk_test_x', merchantId: 'mer_x' }
const orders = memoryOrderStore(new Map())

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
})
