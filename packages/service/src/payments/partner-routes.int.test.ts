import { ErrorBody, PaymentStatusResponse } from '@till/contract'
import { describe, expect, it } from 'vitest'
import { createAccount, createBody, testClock, useTestApp } from '../../test/fixtures.ts'
import { accountStore } from '../accounts/store.ts'

const clock = testClock()

const ctx = useTestApp({ clock })

describe('GET /v1/payments/{paymentId}/status', () => {
  it('reads any payment of any of the partner’s merchants, with the Api-Key alone, in the listing view', async () => {
    const account = await createAccount(ctx.tdb.db)
    const second = await accountStore(ctx.tdb.db).createMerchant({
      partnerId: account.partnerId,
      name: 'B',
      email: 'b@example.com',
      now: clock.now(),
    })
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/v1/merchant/payment',
      headers: { ...account.headers, 'merchant-id': second.id },
      payload: createBody(),
    })
    const { paymentId } = created.json<{ paymentId: string }>()
    const response = await ctx.app.inject({ url: `/v1/payments/${paymentId}/status`, headers: { 'api-key': account.apiKey } })
    expect(response.statusCode).toBe(200)
    expect(PaymentStatusResponse.parse(response.json())).toEqual({ paymentId, status: 'requires_action', isTerminal: false })
    expect(response.headers['pay-version']).toBe('2026-02-18')
  })

  it('reports an expired payment as terminal once its deadline passes, without a sweep', async () => {
    const account = await createAccount(ctx.tdb.db)
    const { paymentId } = (
      await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: account.headers, payload: createBody() })
    ).json<{
      paymentId: string
    }>()
    clock.advance(900_000)
    const response = await ctx.app.inject({ url: `/v1/payments/${paymentId}/status`, headers: { 'api-key': account.apiKey } })
    expect(response.json()).toEqual({ paymentId, status: 'expired', isTerminal: true })
  })

  it('hides other partners’ payments', async () => {
    const mine = await createAccount(ctx.tdb.db)
    const theirs = await createAccount(ctx.tdb.db)
    const { paymentId } = (
      await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: theirs.headers, payload: createBody() })
    ).json<{
      paymentId: string
    }>()
    const response = await ctx.app.inject({ url: `/v1/payments/${paymentId}/status`, headers: { 'api-key': mine.apiKey } })
    expect(response.statusCode).toBe(404)
    expect(ErrorBody.parse(response.json()).code).toBe('payment_not_found')
  })
})
