import { ErrorBody, Payment } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccount, createBody, type Account, useTestApp } from '../../../test/fixtures.ts'
import { ensureSandboxAccounts } from '../../sandbox/seed.ts'
import { paymentStore } from '../../store/payments.ts'

let sandbox: Account

const ctx = useTestApp({ config: { sandbox: true } })
beforeEach(async () => {
  sandbox = await createAccount(ctx.tdb.db, { sandbox: true })
})

async function newPayment(body: Record<string, unknown> = {}) {
  const response = await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: sandbox.headers, payload: createBody(body) })
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
    const paymentId = await newPayment({ checkout: { successUrl: 'https://localhost:5173/return', errorUrl: 'https://127.0.0.1:5173/return' } })
    expect((await paymentStore(ctx.tdb.db).findById(paymentId))?.redirectEnabled).toBe(true)
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
    const kept = await ensureSandboxAccounts(ctx.tdb.db, clock, second.apiKey)
    expect(kept.apiKey).toBe(second.apiKey)
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/v1/merchant/payment',
      headers: { 'api-key': kept.apiKey, 'merchant-id': kept.merchantId },
      payload: createBody(),
    })
    expect(response.statusCode).toBe(201)
  })
})
