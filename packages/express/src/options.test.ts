// A wrong router configuration stops the merchant's server at start-up, saying what to fix.
import { describe, expect, test } from 'vitest';
import { memoryOrderStore } from './orders.ts';
import { payRouter } from './router.ts';

const till = { baseUrl: 'http://127.0.0.1:4000', apiKey: 'till_sk_test_x', merchantId: 'mer_x' };
const orders = memoryOrderStore(new Map());

describe('payRouter options', () => {
  test('builds a router from valid options', () => {
    expect(typeof payRouter({ till, orders, returnUrl: 'https://shop.example/return' })).toBe('function');
  });

  test.each([
    [{ ...till, apiKey: '' }, /till\.apiKey must not be empty/],
    [{ ...till, apiKey: undefined }, /till\.apiKey is required/],
    [{ ...till, merchantId: undefined }, /till\.merchantId is required/],
    [{ ...till, baseUrl: 'localhost:4000' }, /till\.baseUrl must be the absolute http\(s\) address/],
    [{ ...till, payVersion: '2020-01-01' }, /till\.payVersion/],
  ])('refuses %o', (settings, message) => {
    expect(() => payRouter({ till: settings as typeof till, orders, returnUrl: 'https://shop.example/return' })).toThrow(message);
  });

  test('refuses a return URL that is not absolute', () => {
    expect(() => payRouter({ till, orders, returnUrl: '/return' })).toThrow(/returnUrl must be an absolute URL/);
  });

  test('never puts the API key in a configuration error', () => {
    expect(() => payRouter({ till: { ...till, baseUrl: 'nope' }, orders, returnUrl: 'https://shop.example/return' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('till_sk_test_x') }),
    );
  });
});
