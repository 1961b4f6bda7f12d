import { ErrorBody, Payment } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { buyer, createCheckoutPayment, gatewayCall } from '../../test/checkout-fixtures.ts'
import { createAccount, createBody, type Account, useTestApp } from '../../test/fixtures.ts'
import { ensureSandboxAccounts } from './seed.ts'
import { paymentStore } from '../payments/store.ts'

let sandbox: Account

const ctx = useTestApp({ config: { sandbox: true } })
beforeEach(async () => {
  sandbox = await createAccount(ctx.tdb.db, { sandbox: true })
})

async function newPayment(body: Record<string, unknown> = {}) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/v1/merchant/payment',
    headers: sandbox.headers,
    payload: createBody(body),
  })
  expect(response.statusCode).toBe(201)
  return response.json<{ paymentId: string }>().paymentId
}
const simulate = (paymentId: string, outcome: unknown, headers = sandbox.headers) =>
  ctx.app.inject({ method: 'POST', url: `/v1/sandbox/payments/${paymentId}/simulate`, headers, payload: { outcome } })

describe('POST /v1/sandbox/payments/{paymentId}/simulate', () => {
  it('succeeds a payment through processing and leaves realistic listing data', async () => {
    const paymentId = await newPayment({ amount: { unit: 'iso4217/EUR', value: '10000' } })
    const response = await simulate(paymentId, 'succeeded')
    expect(response.statusCode).toBe(200)
    const payment = Payment.parse(response.json())
    expect(payment).toMatchObject({ paymentId, status: 'succeeded', isTerminal: true })
    expect(payment.buyer?.accountCaip10).toMatch(/^eip155:8453:0x[0-9a-f]{40}$/)
    expect(payment.transaction).toMatchObject({ networkId: '8453' })
    expect(payment.transaction?.hash).toMatch(/^0x[0-9a-f]{64}$/)
    // 100.00 EUR at the sandbox rate of 1.08 USD is 108 USDC, in 6-decimal minor units.
    expect(payment.tokenAmount).toMatchObject({ value: '108000000', display: { assetSymbol: 'USDC', decimals: 6 } })
    expect(payment.tokenAmount?.unit).toMatch(/^caip19\/eip155:8453\/erc20:0x/)
    // 0.4 % of 10000 minor units is 40; the merchant is settled the rest.
    expect(payment.fees).toMatchObject({ total: { unit: 'iso4217/EUR', value: '40' }, percentage: '0.4' })
    expect(payment.settlement).toMatchObject({ settled: true, amount: { unit: 'iso4217/EUR', value: '9960' } })
    expect(payment.settledAt).toBeDefined()
    const steps = (await paymentStore(ctx.tdb.db).transitions(paymentId)).map((t) => t.to_status)
    expect(steps).toEqual(['pending', 'processing', 'succeeded'])
  })

  it('rounds the fee up to a whole minor unit', async () => {
    const paymentId = await newPayment({ amount: { unit: 'iso4217/JPY', value: '101' } })
    const payment = Payment.parse((await simulate(paymentId, 'succeeded')).json())
    expect(payment.fees?.total).toMatchObject({ value: '1' })
    expect(payment.settlement).toMatchObject({ amount: { value: '100' } })
  })

  it.each(['processing', 'failed', 'expired'])('moves a pending payment to %s', async (outcome) => {
    const paymentId = await newPayment()
    const response = await simulate(paymentId, outcome)
    expect(response.statusCode).toBe(200)
    expect(Payment.parse(response.json()).status).toBe(outcome)
  })

  it('reads its own change at once, even with the old status in memory', async () => {
    const paymentId = await newPayment()
    const status = async () =>
      (await ctx.app.inject({ url: `/v1/merchant/payment/${paymentId}/status`, headers: sandbox.headers })).json<{ status: string }>()
    expect(await status()).toEqual({ status: 'pending', isFinal: false })
    await simulate(paymentId, 'processing')
    expect(await status()).toEqual({ status: 'processing', isFinal: false })
    await simulate(paymentId, 'succeeded')
    expect(await status()).toEqual({ status: 'succeeded', isFinal: true })
  })

  it('shows pending as requires_action in the listing view', async () => {
    const paymentId = await newPayment()
    await simulate(paymentId, 'processing')
    const status = await ctx.app.inject({ url: `/v1/payments/${paymentId}/status`, headers: { 'api-key': sandbox.apiKey } })
    expect(status.json()).toEqual({ paymentId, status: 'processing', isTerminal: false })
  })

  it.each([
    ['succeeded', 'failed'],
    ['failed', 'succeeded'],
    ['expired', 'processing'],
    ['processing', 'expired'],
    ['succeeded', 'succeeded'],
  ])('refuses %s → %s with 409 invalid_transition', async (first, then) => {
    const paymentId = await newPayment()
    expect((await simulate(paymentId, first)).statusCode).toBe(200)
    const response = await simulate(paymentId, then)
    expect(response.statusCode).toBe(409)
    expect(ErrorBody.parse(response.json()).code).toBe('invalid_transition')
  })

  it.each([['pending'], ['cancelled'], [42], [null]])('refuses the outcome %j with 400', async (outcome) => {
    const paymentId = await newPayment()
    const response = await simulate(paymentId, outcome)
    expect(response.statusCode).toBe(400)
    expect(response.json<ErrorBody>().issues?.[0]?.field).toBe('outcome')
  })

  it('is not for live keys, even on a sandbox server', async () => {
    const live = await createAccount(ctx.tdb.db)
    const response = await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: live.headers, payload: createBody() })
    const paymentId = response.json<{ paymentId: string }>().paymentId
    expect((await simulate(paymentId, 'succeeded', live.headers)).statusCode).toBe(404)
  })

  it('cannot touch another partner’s payment', async () => {
    const paymentId = await newPayment()
    const other = await createAccount(ctx.tdb.db, { sandbox: true })
    expect((await simulate(paymentId, 'succeeded', other.headers)).statusCode).toBe(404)
  })

  it('accepts loopback return URLs in sandbox mode', async () => {
    const paymentId = await newPayment({
      checkout: { successUrl: 'https://localhost:5173/return', errorUrl: 'https://127.0.0.1:5173/return' },
    })
    expect((await paymentStore(ctx.tdb.db).findById(paymentId))?.redirectEnabled).toBe(true)
  })
})

describe('POST /v1/sandbox/payments/{paymentId}/confirm', () => {
  const confirm = (paymentId: string, headers = sandbox.headers) =>
    ctx.app.inject({ method: 'POST', url: `/v1/sandbox/payments/${paymentId}/confirm`, headers })

  async function paidWith(walletId: string) {
    const payment = await createCheckoutPayment(ctx.app, sandbox)
    const paid = await gatewayCall(ctx.app, payment, '/confirm', {
      method: 'POST',
      payload: { walletId, optionId: 'usdc-base', account: buyer() },
    })
    expect(paid.json()).toMatchObject({ status: walletId === 'sandbox_pays' ? 'succeeded' : 'processing' })
    return payment.paymentId
  }

  it("delivers the slow wallet's confirmation now, long before it is due, with the settlement", async () => {
    const paymentId = await paidWith('sandbox_slow')
    const response = await confirm(paymentId)
    expect(response.statusCode).toBe(200)
    expect(Payment.parse(response.json())).toMatchObject({ paymentId, status: 'succeeded', settlement: { settled: true } })
    const steps = await paymentStore(ctx.tdb.db).transitions(paymentId)
    expect(steps.map((t) => `${t.to_status}:${t.reason}`)).toEqual([
      'pending:created',
      'processing:transaction_submitted',
      'succeeded:transaction_confirmed',
    ])
  })

  it('refuses with 409 invalid_transition when no confirmation is pending: once delivered, never waiting, never paid', async () => {
    const slow = await paidWith('sandbox_slow')
    expect((await confirm(slow)).statusCode).toBe(200)
    const cases = [
      [slow, 'succeeded'],
      [await paidWith('sandbox_never'), 'processing'],
      [await paidWith('sandbox_pays'), 'succeeded'],
      [await newPayment(), 'pending'],
    ]
    for (const [paymentId, status] of cases) {
      const response = await confirm(paymentId ?? '')
      expect(response.statusCode, status).toBe(409)
      expect(ErrorBody.parse(response.json())).toMatchObject({ code: 'invalid_transition', details: { status } })
    }
  })

  it('is for sandbox keys of the payment’s own partner only', async () => {
    const paymentId = await paidWith('sandbox_slow')
    const other = await createAccount(ctx.tdb.db, { sandbox: true })
    expect((await confirm(paymentId, other.headers)).statusCode).toBe(404)
    expect((await confirm(paymentId, {})).statusCode).toBe(401)
  })
})

describe('POST /v1/sandbox/payments/{paymentId}/reach-deadline', () => {
  const reach = (paymentId: string, headers = sandbox.headers) =>
    ctx.app.inject({ method: 'POST', url: `/v1/sandbox/payments/${paymentId}/reach-deadline`, headers })

  it('brings the deadline to now, and the payment expires by it as any payment past its deadline', async () => {
    const paymentId = await newPayment()
    const before = await paymentStore(ctx.tdb.db).findById(paymentId)
    const response = await reach(paymentId)
    expect(response.statusCode).toBe(200)
    const payment = Payment.parse(response.json())
    expect(payment).toMatchObject({ paymentId, status: 'expired', isTerminal: true })
    const stored = await paymentStore(ctx.tdb.db).findById(paymentId)
    expect(stored?.expiresAt.getTime()).toBeLessThan(before?.expiresAt.getTime() ?? 0)
    const [, expiry] = await paymentStore(ctx.tdb.db).transitions(paymentId)
    expect(expiry).toMatchObject({ from_status: 'pending', to_status: 'expired', reason: 'deadline', at: stored?.expiresAt })
    const status = await ctx.app.inject({ url: `/v1/merchant/payment/${paymentId}/status`, headers: sandbox.headers })
    expect(status.json()).toEqual({ status: 'expired', isFinal: true })
  })

  it.each(['processing', 'succeeded', 'expired'])('refuses a %s payment with 409 invalid_transition', async (outcome) => {
    const paymentId = await newPayment()
    expect((await simulate(paymentId, outcome)).statusCode).toBe(200)
    const response = await reach(paymentId)
    expect(response.statusCode).toBe(409)
    expect(ErrorBody.parse(response.json())).toMatchObject({ code: 'invalid_transition', details: { status: outcome } })
  })

  it('is for sandbox keys of the payment’s own partner only, and leaves another’s payment alone', async () => {
    const paymentId = await newPayment()
    const other = await createAccount(ctx.tdb.db, { sandbox: true })
    expect((await reach(paymentId, other.headers)).statusCode).toBe(404)
    const live = await createAccount(ctx.tdb.db)
    expect((await reach(paymentId, live.headers)).statusCode).toBe(404)
    expect((await paymentStore(ctx.tdb.db).findById(paymentId))?.status).toBe('pending')
  })
})

describe('sandbox accounts', () => {
  it('are created once and reused, with a fresh key each start', async () => {
    const clock = { now: () => new Date() }
    const first = await ensureSandboxAccounts(ctx.tdb.db, clock)
    const second = await ensureSandboxAccounts(ctx.tdb.db, clock)
    expect(second.partnerId).toBe(first.partnerId)
    expect(second.merchantId).toBe(first.merchantId)
    expect(second.apiKey).not.toBe(first.apiKey)
    const headers = { 'api-key': first.apiKey, 'merchant-id': first.merchantId }
    expect((await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers, payload: createBody() })).statusCode).toBe(401)
    const kept = await ensureSandboxAccounts(ctx.tdb.db, clock, { keep: second.apiKey })
    expect(kept.apiKey).toBe(second.apiKey)
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/v1/merchant/payment',
      headers: { 'api-key': kept.apiKey, 'merchant-id': kept.merchantId },
      payload: createBody(),
    })
    expect(response.statusCode).toBe(201)
  })

  it('pin the sandbox partner to the version asked for, at creation and on a later start', async () => {
    const clock = { now: () => new Date() }
    expect((await ensureSandboxAccounts(ctx.tdb.db, clock)).version).toBe('2026-02-18')
    const pinned = await ensureSandboxAccounts(ctx.tdb.db, clock, { version: '2026-02-19.preview' })
    expect(pinned.version).toBe('2026-02-19.preview')
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/v1/merchant/payment',
      headers: { 'api-key': pinned.apiKey, 'merchant-id': pinned.merchantId, 'pay-version': '2026-02-18' },
      payload: createBody(),
    })
    expect(response.json()).toMatchObject({ code: 'api_version_downgrade' })
    expect((await ensureSandboxAccounts(ctx.tdb.db, clock)).version).toBe('2026-02-19.preview')
  })
})
