import { CheckoutSession, CheckoutStatus, ErrorBody, Payment, PaymentOptionsResponse } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { buyer, createCheckoutPayment, gatewayCall } from '../../test/checkout-fixtures.ts'
import { createAccount, testApp, useTestApp, type Account } from '../../test/fixtures.ts'
import { listingPayment } from '../payments/views.ts'
import { accountStore } from '../accounts/store.ts'
import { paymentStore } from '../payments/store.ts'

// The slow wallet's confirmation is held until a test releases it: no test here waits for a timer.
const ctx = useTestApp({ config: { sandbox: true, sandboxHoldConfirmations: true } })
let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

const pay = (payment: { paymentId: string; token: string }, walletId: string, optionId = 'usdc-base', account = buyer()) =>
  gatewayCall(ctx.app, payment, '/confirm', { method: 'POST', payload: { walletId, optionId, account } })

/** The sandbox API's "the network confirms now". */
const networkConfirms = (paymentId: string) =>
  ctx.app.inject({ method: 'POST', url: `/v1/sandbox/payments/${paymentId}/confirm`, headers: account.headers })

/** The payment as the partner listing shows it (spec 2.1). */
async function listing(paymentId: string) {
  const record = await paymentStore(ctx.tdb.db).findById(paymentId)
  const merchant = await accountStore(ctx.tdb.db).findMerchant(account.merchantId)
  if (!record || !merchant) throw new Error(`no payment ${paymentId}`)
  return Payment.parse(listingPayment(record, { id: merchant.id, name: merchant.name, iconUrl: null }))
}

describe('the gateway token', () => {
  it('is required', async () => {
    const payment = await createCheckoutPayment(ctx.app, account)
    const response = await gatewayCall(ctx.app, payment, '/options', { token: null })
    expect(response.statusCode).toBe(403)
    expect(ErrorBody.parse(response.json())).toMatchObject({ code: 'checkout_token_invalid' })
  })

  it("of one payment's page is refused for another payment, whatever the call", async () => {
    const mine = await createCheckoutPayment(ctx.app, account)
    const theirs = await createCheckoutPayment(ctx.app, account)
    for (const [path, method] of [
      ['', 'GET'],
      ['/options', 'GET'],
      ['/status', 'GET'],
      ['/confirm', 'POST'],
      ['/expire', 'POST'],
    ] as const) {
      const response = await gatewayCall(ctx.app, { paymentId: theirs.paymentId, token: mine.token }, path, {
        method,
        ...(method === 'POST' ? { payload: { walletId: 'sandbox_pays', optionId: 'usdc-base', account: buyer() } } : {}),
      })
      expect(response.statusCode, path).toBe(403)
      expect(response.json()).toMatchObject({ code: 'checkout_token_invalid' })
    }
    const untouched = await gatewayCall(ctx.app, theirs, '/status')
    expect(untouched.json()).toMatchObject({ status: 'pending' })
  })

  it('needs no API key, and the display data carries none', async () => {
    const payment = await createCheckoutPayment(ctx.app, account, { referenceId: 'order-private-7' })
    const response = await gatewayCall(ctx.app, payment, '')
    expect(response.statusCode).toBe(200)
    const session = CheckoutSession.parse(response.json())
    expect(session.wallets.map((wallet) => wallet.id)).toEqual([
      'sandbox_pays',
      'sandbox_declines',
      'sandbox_slow',
      'sandbox_never',
      'sandbox_mobile',
      'sandbox_phone',
    ])
    expect(response.body).not.toContain('order-private-7')
    expect(response.body).not.toContain(account.apiKey)
    expect(response.body).not.toContain(account.partnerId)
  })
})

describe('payment options', () => {
  it('quote tokens on networks with exact integer amounts', async () => {
    const payment = await createCheckoutPayment(ctx.app, account, { amount: { unit: 'iso4217/EUR', value: '1999' } })
    const { options } = PaymentOptionsResponse.parse((await gatewayCall(ctx.app, payment, '/options')).json())
    expect(options.map((option) => `${option.tokenAmount.display?.assetSymbol} ${option.network.id}`)).toEqual([
      'USDC eip155:8453',
      'USDC eip155:1',
      'USDC eip155:137',
      'USDT eip155:1',
    ])
    // 19.99 EUR at the sandbox's 1.08 USD per EUR: 21.5892 USD, in 6-decimal minor units.
    expect(new Set(options.map((option) => option.tokenAmount.value))).toEqual(new Set(['21589200']))
    // The rate each works out to, exactly, and the sandbox says it is its fixed one.
    expect(options.map((option) => option.rate)).toEqual([
      '1 EUR = 1.08 USDC (fixed sandbox rate)',
      '1 EUR = 1.08 USDC (fixed sandbox rate)',
      '1 EUR = 1.08 USDC (fixed sandbox rate)',
      '1 EUR = 1.08 USDT (fixed sandbox rate)',
    ])
    // What the sandbox's phone wallet shows: the exact amount to the merchant, here to nobody (no sandbox address).
    expect(options[0]?.paymentRequest).toBe(
      'ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x0000000000000000000000000000000000000000&uint256=21589200',
    )
    expect(options.map((option) => option.paymentRequest?.split('@')[1]?.split('/')[0])).toEqual(['8453', '1', '137', '1'])
  })

  it('show the rate of a currency without minor units the same way', async () => {
    const payment = await createCheckoutPayment(ctx.app, account, { amount: { unit: 'iso4217/JPY', value: '1500' } })
    const { options } = PaymentOptionsResponse.parse((await gatewayCall(ctx.app, payment, '/options')).json())
    expect(options[0]?.rate).toBe('1 JPY = 0.0067 USDC (fixed sandbox rate)')
  })
})

describe('paying with the test wallets', () => {
  it('the paying wallet succeeds, leaves realistic listing data, and redirects to successUrl', async () => {
    const payment = await createCheckoutPayment(ctx.app, account, {
      amount: { unit: 'iso4217/EUR', value: '10000' },
      checkout: { successUrl: 'https://shop.example/paid?order=7#thanks', errorUrl: 'https://shop.example/oops' },
    })
    const response = await pay(payment, 'sandbox_pays', 'usdc-polygon', buyer('eip155:137'))
    expect(response.statusCode).toBe(200)
    const status = CheckoutStatus.parse(response.json())
    expect(status).toMatchObject({ status: 'succeeded', isFinal: true })
    expect(status.redirect).toEqual({ url: `https://shop.example/paid?order=7&payment_id=${payment.paymentId}#thanks`, countdownMs: 3000 })
    expect(status.paid).toMatchObject({ account: buyer('eip155:137'), network: { id: 'eip155:137', name: 'Polygon' } })
    expect(await listing(payment.paymentId)).toMatchObject({
      status: 'succeeded',
      buyer: { accountCaip10: buyer('eip155:137'), accountProviderName: 'Test Wallet: Pays' },
      transaction: { networkId: '137' },
      tokenAmount: { value: '108000000', display: { assetSymbol: 'USDC' } },
      fees: { total: { value: '40' }, percentage: '0.4' },
      settlement: { settled: true, amount: { value: '9960' } },
    })
  })

  it('the declining wallet fails the payment without a transaction, and redirects to errorUrl', async () => {
    const payment = await createCheckoutPayment(ctx.app, account)
    const status = CheckoutStatus.parse((await pay(payment, 'sandbox_declines')).json())
    expect(status).toMatchObject({ status: 'failed', paid: { transactionHash: null } })
    expect(status.redirect?.url).toBe(`https://shop.example/failed?payment_id=${payment.paymentId}`)
    const listed = await listing(payment.paymentId)
    expect(listed).toMatchObject({ status: 'failed', buyer: { accountCaip10: buyer() } })
    expect(listed).not.toHaveProperty('settlement')
  })

  it('the slow wallet stays processing until the network confirms, which wakes a waiting long-poll', async () => {
    const payment = await createCheckoutPayment(ctx.app, account)
    expect((await pay(payment, 'sandbox_slow')).json()).toMatchObject({ status: 'processing', redirect: null })
    expect((await gatewayCall(ctx.app, payment, '/status')).json()).toMatchObject({ status: 'processing' })
    const waiting = gatewayCall(ctx.app, payment, '/status?after=processing&waitMs=20000')
    expect((await networkConfirms(payment.paymentId)).statusCode).toBe(200)
    expect((await waiting).json()).toMatchObject({ status: 'succeeded', isFinal: true })
  })

  it('the never-confirming wallet leaves the payment processing, with its transaction and no confirmation to come', async () => {
    const payment = await createCheckoutPayment(ctx.app, account)
    const status = CheckoutStatus.parse((await pay(payment, 'sandbox_never')).json())
    expect(status).toMatchObject({ status: 'processing', isFinal: false, redirect: null })
    expect(status.paid?.transactionHash).toMatch(/^0x[0-9a-f]{64}$/)
    const confirmed = await networkConfirms(payment.paymentId)
    expect(confirmed.statusCode).toBe(409)
    expect(ErrorBody.parse(confirmed.json())).toMatchObject({ code: 'invalid_transition', details: { status: 'processing' } })
    expect((await gatewayCall(ctx.app, payment, '/status')).json()).toMatchObject({ status: 'processing' })
  })

  it('a second payment attempt is refused: the payment moves once', async () => {
    const payment = await createCheckoutPayment(ctx.app, account)
    expect((await pay(payment, 'sandbox_pays')).statusCode).toBe(200)
    const again = await pay(payment, 'sandbox_declines')
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ code: 'invalid_transition', details: { status: 'succeeded' } })
  })

  it.each([
    [{ walletId: 'visa', optionId: 'usdc-base', account: buyer() }, 'walletId'],
    [{ walletId: 'sandbox_pays', optionId: 'btc-lightning', account: buyer() }, 'optionId'],
    [{ walletId: 'sandbox_pays', optionId: 'usdc-base', account: buyer('eip155:1') }, 'account'],
    [{ walletId: 'sandbox_pays', optionId: 'usdc-base', account: 'not-an-account' }, 'account'],
    [{ walletId: 'sandbox_pays', optionId: 'usdc-base', account: buyer(), amount: '1' }, 'amount'],
  ])('refuses %j with a field-level 400', async (payload, field) => {
    const payment = await createCheckoutPayment(ctx.app, account)
    const response = await gatewayCall(ctx.app, payment, '/confirm', { method: 'POST', payload })
    expect(response.statusCode).toBe(400)
    const body = ErrorBody.parse(response.json())
    expect(body.issues?.map((issue) => issue.field)).toContain(field)
    expect((await gatewayCall(ctx.app, payment, '/status')).json()).toMatchObject({ status: 'pending' })
  })
})

describe('expire now (sandbox)', () => {
  it('expires a pending payment and redirects to errorUrl', async () => {
    const payment = await createCheckoutPayment(ctx.app, account)
    const status = CheckoutStatus.parse((await gatewayCall(ctx.app, payment, '/expire', { method: 'POST', payload: {} })).json())
    expect(status).toMatchObject({ status: 'expired', isFinal: true })
    expect(status.redirect?.url).toBe(`https://shop.example/failed?payment_id=${payment.paymentId}`)
    expect((await ctx.app.inject({ url: `/v1/merchant/payment/${payment.paymentId}/status`, headers: account.headers })).json()).toEqual({
      status: 'expired',
      isFinal: true,
    })
  })
})

describe('redirect disabled', () => {
  it.each([
    ['an http:// URL', { successUrl: 'http://shop.example/ok', errorUrl: 'https://shop.example/no' }],
    ['a malformed URL', { successUrl: 'https://', errorUrl: 'https://shop.example/no' }],
    ['one URL missing', { successUrl: 'https://shop.example/ok' }],
    ['credentials in the URL', { successUrl: 'https://user:pw@shop.example/ok', errorUrl: 'https://shop.example/no' }],
  ])('with %s: the final status carries no redirect', async (_, checkout) => {
    const payment = await createCheckoutPayment(ctx.app, account, { checkout })
    expect((await pay(payment, 'sandbox_pays')).json()).toMatchObject({ status: 'succeeded', redirect: null })
  })
})

describe('the status long-poll', () => {
  it('answers at once without `after`, or when the status already differs', async () => {
    const payment = await createCheckoutPayment(ctx.app, account)
    expect((await gatewayCall(ctx.app, payment, '/status')).json()).toMatchObject({ status: 'pending' })
    expect((await gatewayCall(ctx.app, payment, '/status?after=processing&waitMs=25000')).json()).toMatchObject({ status: 'pending' })
  })

  it('is woken by a change made elsewhere (the merchant-side simulate endpoint)', async () => {
    const payment = await createCheckoutPayment(ctx.app, account)
    const waiting = gatewayCall(ctx.app, payment, '/status?after=pending&waitMs=20000')
    const simulated = await ctx.app.inject({
      method: 'POST',
      url: `/v1/sandbox/payments/${payment.paymentId}/simulate`,
      headers: account.headers,
      payload: { outcome: 'failed' },
    })
    expect(simulated.statusCode).toBe(200)
    expect((await waiting).json()).toMatchObject({ status: 'failed', isFinal: true })
  })

  it('answers at once when the service shuts down, instead of holding the shutdown', async () => {
    const closing = await testApp(ctx.tdb.db, { config: { sandbox: true } })
    const payment = await createCheckoutPayment(closing, account)
    const waiting = gatewayCall(closing, payment, '/status?after=pending&waitMs=25000')
    await closing.close()
    // Without the release this would wait out the 25 s long-poll, past the test's 20 s timeout.
    expect((await waiting).json()).toMatchObject({ status: 'pending' })
  })

  it('refuses a wait longer than it holds, and an unknown status', async () => {
    const payment = await createCheckoutPayment(ctx.app, account)
    for (const query of ['after=pending&waitMs=60000', 'after=refunded', 'after=pending&waitMs=soon', 'poll=1']) {
      const response = await gatewayCall(ctx.app, payment, `/status?${query}`)
      expect(response.statusCode, query).toBe(400)
      expect(ErrorBody.parse(response.json()).issues?.length).toBeGreaterThan(0)
    }
  })
})

describe('a payment that reaches its deadline while its page waits', () => {
  it('is reported expired by the long-poll, woken by the deadline itself', async () => {
    const payment = await createCheckoutPayment(ctx.app, account)
    const waiting = gatewayCall(ctx.app, payment, '/status?after=pending&waitMs=20000')
    const reached = await ctx.app.inject({
      method: 'POST',
      url: `/v1/sandbox/payments/${payment.paymentId}/reach-deadline`,
      headers: account.headers,
    })
    expect(reached.statusCode).toBe(200)
    expect((await waiting).json()).toMatchObject({
      status: 'expired',
      isFinal: true,
      redirect: { url: `https://shop.example/failed?payment_id=${payment.paymentId}` },
    })
    const [, expiry] = await paymentStore(ctx.tdb.db).transitions(payment.paymentId)
    expect(expiry).toMatchObject({ to_status: 'expired', reason: 'deadline' })
  })
})

describe('rate limits', () => {
  const limited = useTestApp({
    config: {
      sandbox: true,
      checkoutRateLimits: { perPayment: { limit: 3, windowMs: 60_000 }, actionsPerPayment: { limit: 1, windowMs: 60_000 } },
    },
  })

  it('stop one payment being hammered, and tell when to come back', async () => {
    const limitedAccount = await createAccount(limited.tdb.db, { sandbox: true })
    const payment = await createCheckoutPayment(limited.app, limitedAccount)
    const other = await createCheckoutPayment(limited.app, limitedAccount)
    for (let i = 0; i < 3; i++) expect((await gatewayCall(limited.app, payment, '/status')).statusCode).toBe(200)
    const refused = await gatewayCall(limited.app, payment, '/status')
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(ErrorBody.parse(refused.json())).toMatchObject({ code: 'rate_limited' })
    // Another payment has its own budget.
    expect((await gatewayCall(limited.app, other, '/status')).statusCode).toBe(200)
  })

  it('allow only a few actions per payment', async () => {
    const limitedAccount = await createAccount(limited.tdb.db, { sandbox: true })
    const payment = await createCheckoutPayment(limited.app, limitedAccount)
    const first = await gatewayCall(limited.app, payment, '/confirm', {
      method: 'POST',
      payload: { walletId: 'sandbox_pays', optionId: 'bogus', account: buyer() },
    })
    expect(first.statusCode).toBe(400)
    const second = await gatewayCall(limited.app, payment, '/expire', { method: 'POST', payload: {} })
    expect(second.statusCode).toBe(429)
  })
})

describe('per-address rate limit', () => {
  const limited = useTestApp({ config: { sandbox: true, checkoutRateLimits: { perIp: { limit: 2, windowMs: 60_000 } } } })

  it('covers the page and the gateway API, but not the cached assets', async () => {
    const limitedAccount = await createAccount(limited.tdb.db, { sandbox: true })
    const created = await limited.app.inject({
      method: 'POST',
      url: '/v1/merchant/payment',
      headers: limitedAccount.headers,
      payload: { amount: { unit: 'iso4217/EUR', value: '100' }, referenceId: 'ip-limit' },
    })
    const { paymentId } = created.json<{ paymentId: string }>()
    expect((await limited.app.inject({ url: `/checkout/${paymentId}`, remoteAddress: '10.0.0.1' })).statusCode).toBe(200)
    expect((await limited.app.inject({ url: `/checkout/${paymentId}`, remoteAddress: '10.0.0.1' })).statusCode).toBe(200)
    const third = await limited.app.inject({ url: `/checkout/${paymentId}`, remoteAddress: '10.0.0.1' })
    expect(third.statusCode).toBe(429)
    expect((await limited.app.inject({ url: `/checkout/${paymentId}`, remoteAddress: '10.0.0.2' })).statusCode).toBe(200)
  })
})
