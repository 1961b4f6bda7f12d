import { describe, expect, it } from 'vitest'
import { LISTING_TERMINALITY, MERCHANT_FINALITY } from './status-tables.test-data.ts'
import {
  CheckoutConfig,
  CreatePaymentRequest,
  CreatePaymentResponse,
  MerchantPaymentStatusResponse,
  PaymentIdParam,
  PaymentStatusResponse,
  ReferenceId,
} from './payment.ts'
import { resolveCheckoutRedirects } from './redirect-url.ts'

const amount = { unit: 'iso4217/EUR', value: '1999' }
const valid = { amount, referenceId: 'order-42' }

describe('CreatePaymentRequest', () => {
  it('accepts the minimal body', () => {
    expect(CreatePaymentRequest.parse(valid)).toEqual(valid)
  })

  it('passes checkout URLs through as given', () => {
    const checkout = { successUrl: 'https://shop.example/ok', errorUrl: 'https://shop.example/ko' }
    expect(CreatePaymentRequest.parse({ ...valid, checkout }).checkout).toEqual(checkout)
  })

  it('keeps an invalid URL string: validity only decides whether redirects happen', () => {
    const parsed = CreatePaymentRequest.parse({ ...valid, checkout: { successUrl: 'http://insecure.example/', errorUrl: 'nope' } })
    expect(parsed.checkout).toEqual({ successUrl: 'http://insecure.example/', errorUrl: 'nope' })
  })

  it.each([
    [{ successUrl: 42, errorUrl: 'https://shop.example/ko' }, { errorUrl: 'https://shop.example/ko' }],
    [{ successUrl: 'https://shop.example/ok', errorUrl: { href: 'x' } }, { successUrl: 'https://shop.example/ok' }],
    [{ successUrl: null, errorUrl: null }, {}],
    [{}, {}],
  ])('does not fail on the wrongly typed checkout field in %j', (checkout, expected) => {
    const parsed = CreatePaymentRequest.safeParse({ ...valid, checkout })
    expect(parsed.success).toBe(true)
    if (parsed.success) {
      expect(parsed.data.checkout?.successUrl).toBe((expected as { successUrl?: string }).successUrl)
      expect(parsed.data.checkout?.errorUrl).toBe((expected as { errorUrl?: string }).errorUrl)
    }
  })

  it.each([null, 'https://shop.example/', 7, [], true])('treats checkout %j as missing', (checkout) => {
    const parsed = CreatePaymentRequest.safeParse({ ...valid, checkout })
    expect(parsed.success).toBe(true)
    if (parsed.success) expect(parsed.data.checkout).toBeUndefined()
  })

  it('ignores unknown top-level fields and drops them', () => {
    const parsed = CreatePaymentRequest.parse({ ...valid, metadata: { a: 1 }, futureField: true })
    expect(parsed).toEqual(valid)
  })

  it.each([null, [], 'text', 42])('requires the body to be an object, not %j', (body) => {
    expect(CreatePaymentRequest.safeParse(body).success).toBe(false)
  })

  it('requires amount and referenceId', () => {
    expect(CreatePaymentRequest.safeParse({ amount }).success).toBe(false)
    expect(CreatePaymentRequest.safeParse({ referenceId: 'x' }).success).toBe(false)
  })

  it('applies the create-amount rules', () => {
    for (const value of ['0', '1.00', '-1', '9223372036854775808']) {
      expect(CreatePaymentRequest.safeParse({ ...valid, amount: { ...amount, value } }).success).toBe(false)
    }
  })
})

describe('ReferenceId', () => {
  it.each(['a', 'order-42', 'ORDER 42', 'x'.repeat(255), '注文-7', '😀'.repeat(255), 'a b'])('accepts %j', (v) => {
    expect(ReferenceId.safeParse(v).success).toBe(true)
  })

  it.each([
    ['', 'must not be empty'],
    ['x'.repeat(256), 'at most 255'],
    ['😀'.repeat(256), 'at most 255'],
    [' order', 'whitespace'],
    ['order ', 'whitespace'],
    ['order\u00a0', 'whitespace'],
    ['or\u0000der', 'control'],
    ['or\nder', 'control'],
    ['or\u007fder', 'control'],
    ['or\u0085der', 'control'],
  ])('refuses %j with a message about %s', (v, hint) => {
    const result = ReferenceId.safeParse(v)
    expect(result.success).toBe(false)
    if (!result.success) expect(result.error.issues.map((i) => i.message).join(' | ')).toContain(hint)
  })

  it('refuses non-strings', () => {
    expect(ReferenceId.safeParse(42).success).toBe(false)
  })
})

describe('CheckoutConfig and resolveCheckoutRedirects', () => {
  const both = { successUrl: 'https://shop.example/ok', errorUrl: 'https://shop.example/ko' }

  it('enables redirects only when both URLs are valid', () => {
    expect(resolveCheckoutRedirects(CheckoutConfig.parse(both), { allowLoopback: false })).toEqual(both)
    expect(resolveCheckoutRedirects({ successUrl: both.successUrl }, { allowLoopback: false })).toBeNull()
    expect(resolveCheckoutRedirects({ ...both, errorUrl: 'http://shop.example/ko' }, { allowLoopback: false })).toBeNull()
    expect(resolveCheckoutRedirects(undefined, { allowLoopback: false })).toBeNull()
    expect(resolveCheckoutRedirects(null, { allowLoopback: false })).toBeNull()
  })

  it('returns the normalized URLs', () => {
    expect(
      resolveCheckoutRedirects({ successUrl: 'HTTPS://Shop.Example', errorUrl: 'https://shop.example/ko' }, { allowLoopback: false }),
    ).toEqual({
      successUrl: 'https://shop.example/',
      errorUrl: 'https://shop.example/ko',
    })
  })

  it('honours allowLoopback', () => {
    const local = { successUrl: 'https://localhost:3000/ok', errorUrl: 'https://localhost:3000/ko' }
    expect(resolveCheckoutRedirects(local, { allowLoopback: false })).toBeNull()
    expect(resolveCheckoutRedirects(local, { allowLoopback: true })).toEqual(local)
  })
})

describe('CreatePaymentResponse', () => {
  const response = {
    paymentId: 'pay_123',
    gatewayUrl: 'https://pay.example/checkout/pay_123',
    status: 'pending',
    expiresAt: 1771416000,
    isFinal: false,
    pollInMs: 2000,
  }

  it('accepts a fresh payment', () => {
    expect(CreatePaymentResponse.parse(response)).toEqual(response)
  })

  it.each([
    ['expiresAt', 1771416000.5],
    ['expiresAt', -1],
    ['expiresAt', '1771416000'],
    ['pollInMs', -1],
    ['pollInMs', 1.5],
    ['gatewayUrl', '/checkout/pay_123'],
    ['gatewayUrl', 'javascript:alert(1)'],
    ['status', 'requires_action'],
    ['paymentId', ''],
  ])('refuses %s = %j', (field, value) => {
    expect(CreatePaymentResponse.safeParse({ ...response, [field]: value }).success).toBe(false)
  })

  it('requires isFinal to agree with status', () => {
    expect(CreatePaymentResponse.safeParse({ ...response, isFinal: true }).success).toBe(false)
    expect(CreatePaymentResponse.safeParse({ ...response, status: 'succeeded', isFinal: true }).success).toBe(true)
    expect(CreatePaymentResponse.safeParse({ ...response, status: 'expired', isFinal: false }).success).toBe(false)
  })
})

describe('MerchantPaymentStatusResponse', () => {
  it.each(MERCHANT_FINALITY)('accepts %s with isFinal %s and refuses the opposite', (status, isFinal) => {
    expect(MerchantPaymentStatusResponse.safeParse({ status, isFinal }).success).toBe(true)
    const wrong = MerchantPaymentStatusResponse.safeParse({ status, isFinal: !isFinal })
    expect(wrong.success).toBe(false)
    if (!wrong.success) expect(wrong.error.issues[0]?.path).toEqual(['isFinal'])
  })

  it('refuses listing-view statuses', () => {
    expect(MerchantPaymentStatusResponse.safeParse({ status: 'requires_action', isFinal: false }).success).toBe(false)
  })

  it('takes cancelled, final, as the preview shows it', () => {
    expect(MerchantPaymentStatusResponse.safeParse({ status: 'cancelled', isFinal: true }).success).toBe(true)
    expect(MerchantPaymentStatusResponse.safeParse({ status: 'cancelled', isFinal: false }).success).toBe(false)
  })
})

describe('PaymentStatusResponse', () => {
  it.each(LISTING_TERMINALITY)('accepts %s with isTerminal %s and refuses the opposite', (status, isTerminal) => {
    expect(PaymentStatusResponse.safeParse({ paymentId: 'p', status, isTerminal }).success).toBe(true)
    expect(PaymentStatusResponse.safeParse({ paymentId: 'p', status, isTerminal: !isTerminal }).success).toBe(false)
  })

  it('uses the listing view, not the merchant one', () => {
    expect(PaymentStatusResponse.safeParse({ paymentId: 'p', status: 'pending', isTerminal: false }).success).toBe(false)
  })
})

describe('PaymentIdParam', () => {
  it.each(['p', 'pay_01HZX-abc', 'a'.repeat(128)])('accepts %s', (v) => {
    expect(PaymentIdParam.safeParse(v).success).toBe(true)
  })
  it.each(['', 'a'.repeat(129), 'pay 1', 'pay/1', 'pay.1', '../etc', 'pay%201', 'é'])('refuses %j', (v) => {
    expect(PaymentIdParam.safeParse(v).success).toBe(false)
  })
})
