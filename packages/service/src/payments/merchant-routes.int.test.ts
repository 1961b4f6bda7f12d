import { CreatePaymentResponse, ErrorBody, MerchantPaymentStatusResponse } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { CHECKOUT_URL, createAccount, createBody, testClock, type Account, useTestApp } from '../../test/fixtures.ts'
import { accountStore } from '../accounts/store.ts'
import { paymentStore } from './store.ts'

let account: Account
const clock = testClock()

const ctx = useTestApp({ clock })
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
})

const create = (body: unknown, headers: Record<string, string> = account.headers) =>
  ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers, payload: body as object })
/** A body sent byte for byte, with its own content type. */
const createRaw = (contentType: string, payload: string) =>
  ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: { ...account.headers, 'content-type': contentType }, payload })

describe('POST /v1/merchant/payment', () => {
  it('creates a pending payment with an unguessable id under the checkout URL', async () => {
    const response = await create(createBody())
    expect(response.statusCode).toBe(201)
    const body = CreatePaymentResponse.parse(response.json())
    expect(body.paymentId).toMatch(/^pay_[0-9a-z]{32}$/)
    expect(body.gatewayUrl).toBe(`${CHECKOUT_URL}/${body.paymentId}`)
    expect(body).toMatchObject({ status: 'pending', isFinal: false, pollInMs: 2000 })
    expect(body.expiresAt).toBe(Math.floor(clock.now().getTime() / 1000) + 900)
    expect(response.headers['pay-version']).toBe('2026-02-18')
  })

  it('gives every payment a different id', async () => {
    const ids = new Set<string>()
    for (let i = 0; i < 20; i++) ids.add((await create(createBody())).json<{ paymentId: string }>().paymentId)
    expect(ids.size).toBe(20)
  })

  it('stores the amount as integer minor units, exactly', async () => {
    const big = '9223372036854775807'
    const response = await create(createBody({ amount: { unit: 'iso4217/JPY', value: big } }))
    expect(response.statusCode).toBe(201)
    const stored = await paymentStore(ctx.tdb.db).findById(response.json<{ paymentId: string }>().paymentId)
    expect(stored?.amountMinor).toBe(9223372036854775807n)
    expect(stored?.currency).toBe('JPY')
  })

  it.each([
    ['a decimal', '19.99'],
    ['a sign', '+100'],
    ['a negative', '-100'],
    ['an exponent', '1e3'],
    ['a leading zero', '0100'],
    ['zero', '0'],
    ['a number instead of a string', 1999],
    ['more than a bigint holds', '9223372036854775808'],
  ])('refuses an amount value with %s', async (_case, value) => {
    const response = await create(createBody({ amount: { unit: 'iso4217/EUR', value } }))
    expect(response.statusCode).toBe(400)
    const body = ErrorBody.parse(response.json())
    expect(body.code).toBe('params_validation')
    expect(body.issues?.map((issue) => issue.field)).toContain('amount.value')
  })

  it.each(['iso4217/XXX', 'iso4217/XTS', 'iso4217/XAU', 'iso4217/BOV', 'iso4217/usd', 'iso4217/ABC', 'EUR', 'caip19/eip155:1/slip44:60'])(
    'refuses the unit %s',
    async (unit) => {
      const response = await create(createBody({ amount: { unit, value: '100' } }))
      expect(response.statusCode).toBe(400)
      expect(response.json<ErrorBody>().issues?.map((issue) => issue.field)).toContain('amount.unit')
    },
  )

  it.each(['iso4217/JPY', 'iso4217/KWD', 'iso4217/USD', 'iso4217/CLP'])('accepts the unit %s', async (unit) => {
    expect((await create(createBody({ amount: { unit, value: '1' } }))).statusCode).toBe(201)
  })

  it('names every missing field', async () => {
    const response = await create({})
    expect(response.statusCode).toBe(400)
    const fields = response.json<ErrorBody>().issues?.map((issue) => issue.field)
    expect(fields).toEqual(expect.arrayContaining(['amount', 'referenceId']))
  })

  it('answers malformed JSON with invalid_params', async () => {
    const response = await createRaw('application/json', '{"amount": ')
    expect(response.statusCode).toBe(400)
    expect(ErrorBody.parse(response.json()).code).toBe('invalid_params')
  })

  it('answers a body that is not JSON with 415', async () => {
    const response = await createRaw('text/plain', 'amount=1')
    expect(response.statusCode).toBe(415)
    expect(ErrorBody.parse(response.json()).code).toBe('unsupported_media_type')
  })

  it('answers a JSON array or null body with params_validation', async () => {
    for (const payload of ['[]', 'null', '"text"']) {
      const response = await createRaw('application/json', payload)
      expect(response.statusCode).toBe(400)
      expect(response.json<ErrorBody>().code).toBe('params_validation')
    }
  })

  it('refuses a body over the size limit with 413', async () => {
    const response = await create(createBody({ referenceId: 'x'.repeat(100_000) }))
    expect(response.statusCode).toBe(413)
    expect(response.json<ErrorBody>().code).toBe('payload_too_large')
  })
})

describe('redirect URLs', () => {
  const redirectOf = async (checkout: unknown) => {
    const response = await create(createBody({ checkout }))
    expect(response.statusCode).toBe(201)
    const stored = await paymentStore(ctx.tdb.db).findById(response.json<{ paymentId: string }>().paymentId)
    return { enabled: stored?.redirectEnabled, success: stored?.successUrl, error: stored?.errorUrl }
  }

  it('enables redirect when both URLs are valid HTTPS, stored normalized', async () => {
    expect(await redirectOf({ successUrl: 'https://Shop.Example/ok?x=1#top', errorUrl: 'https://shop.example/err' })).toEqual({
      enabled: true,
      success: 'https://shop.example/ok?x=1#top',
      error: 'https://shop.example/err',
    })
  })

  it.each([
    ['http://', { successUrl: 'http://shop.example/ok', errorUrl: 'https://shop.example/err' }],
    ['malformed', { successUrl: 'https://', errorUrl: 'https://shop.example/err' }],
    ['one missing', { successUrl: 'https://shop.example/ok' }],
    ['both missing', {}],
    ['credentials', { successUrl: 'https://user:pw@shop.example/ok', errorUrl: 'https://shop.example/err' }],
    ['a number', { successUrl: 42, errorUrl: 'https://shop.example/err' }],
    ['control characters', { successUrl: 'https://shop.example/o\nk', errorUrl: 'https://shop.example/err' }],
    ['loopback outside sandbox', { successUrl: 'https://localhost:8443/ok', errorUrl: 'https://127.0.0.1/err' }],
    ['javascript:', { successUrl: 'javascript:alert(1)', errorUrl: 'https://shop.example/err' }],
    ['too long', { successUrl: `https://shop.example/${'a'.repeat(2100)}`, errorUrl: 'https://shop.example/err' }],
  ])('still creates the payment, with redirect disabled, for %s', async (_case, checkout) => {
    expect((await redirectOf(checkout)).enabled).toBe(false)
  })

  it('creates the payment with redirect disabled when checkout is not an object', async () => {
    expect((await redirectOf('https://shop.example/ok')).enabled).toBe(false)
    expect((await redirectOf(null)).enabled).toBe(false)
  })
})

describe('GET /v1/merchant/payment/{id}/status', () => {
  it('reads the status of the merchant’s own payment', async () => {
    const { paymentId } = (await create(createBody())).json<{ paymentId: string }>()
    const response = await ctx.app.inject({ url: `/v1/merchant/payment/${paymentId}/status`, headers: account.headers })
    expect(response.statusCode).toBe(200)
    expect(MerchantPaymentStatusResponse.parse(response.json())).toEqual({ status: 'pending', isFinal: false })
  })

  it('hides another merchant’s payment of the same partner behind a 404', async () => {
    const { paymentId } = (await create(createBody())).json<{ paymentId: string }>()
    const { merchantId } = await createAccountMerchant(account.partnerId)
    const response = await ctx.app.inject({
      url: `/v1/merchant/payment/${paymentId}/status`,
      headers: { ...account.headers, 'merchant-id': merchantId },
    })
    expect(response.statusCode).toBe(404)
    expect(response.json<ErrorBody>().code).toBe('payment_not_found')
  })

  it('hides another partner’s payment behind a 404', async () => {
    const { paymentId } = (await create(createBody())).json<{ paymentId: string }>()
    const other = await createAccount(ctx.tdb.db)
    const response = await ctx.app.inject({ url: `/v1/merchant/payment/${paymentId}/status`, headers: other.headers })
    expect(response.statusCode).toBe(404)
    expect(response.json<ErrorBody>().code).toBe('payment_not_found')
  })

  it('answers an unknown or malformed id with 404', async () => {
    for (const id of ['pay_00000000000000000000000000000000', 'nope', "1' OR '1'='1"]) {
      const response = await ctx.app.inject({ url: `/v1/merchant/payment/${encodeURIComponent(id)}/status`, headers: account.headers })
      expect(response.statusCode).toBe(404)
      expect(ErrorBody.parse(response.json()).code).toBe('payment_not_found')
    }
  })
})

async function createAccountMerchant(partnerId: string) {
  const merchant = await accountStore(ctx.tdb.db).createMerchant({ partnerId, name: 'Second', email: 'b@example.com', now: new Date() })
  return { merchantId: merchant.id }
}
