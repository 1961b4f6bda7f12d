// Cancelling a payment (issue 24, point 1): POST /v1/merchant/payment/{paymentId}/cancel, in each status, for
// each version, and how a cancelled payment reads everywhere afterwards.
import { CancelPaymentResponse, ErrorBody, type MerchantPaymentStatus } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccount, createBody, testClock, type Account, useTestApp } from '../../test/fixtures.ts'
import { accountStore } from '../accounts/store.ts'
import { paymentService } from './service.ts'
import { paymentStore } from './store.ts'

const clock = testClock()
// The merchant's webhook host resolves to a public address: its endpoint is accepted (and never called here).
const ctx = useTestApp({ clock, outbound: { lookup: async () => [{ address: '93.184.216.34', family: 4 }] } })
let account: Account
beforeEach(async () => {
  clock.set(new Date('2026-11-21T12:00:00.000Z'))
  account = await createAccount(ctx.tdb.db)
})

async function create(headers: Record<string, string> = account.headers, body = createBody()): Promise<string> {
  const response = await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers, payload: body })
  expect(response.statusCode).toBe(201)
  return response.json<{ paymentId: string }>().paymentId
}

const cancel = (paymentId: string, headers: Record<string, string> = account.headers) =>
  ctx.app.inject({ method: 'POST', url: `/v1/merchant/payment/${paymentId}/cancel`, headers })

/** Moves a payment along legal steps, as a buyer's wallet and the network would. */
async function walk(paymentId: string, steps: MerchantPaymentStatus[]): Promise<void> {
  const payments = paymentService({ db: ctx.tdb.db, clock, policy: { paymentTtlSeconds: 900, allowLoopbackRedirects: false } })
  for (const to of steps) {
    const payment = await paymentStore(ctx.tdb.db).findById(paymentId)
    if (!payment) throw new Error(`no payment ${paymentId}`)
    await payments.transition({ payment, to, reason: 'test' })
  }
}

describe('POST /v1/merchant/payment/{paymentId}/cancel', () => {
  it('cancels a pending payment: final, recorded as the merchant’s doing, and on 2026-02-18 read as failed', async () => {
    const paymentId = await create()
    const response = await cancel(paymentId)
    expect(response.statusCode).toBe(200)
    expect(response.headers['pay-version']).toBe('2026-02-18')
    expect(CancelPaymentResponse.parse(response.json())).toEqual({ paymentId, status: 'failed', isFinal: true })
    expect((await paymentStore(ctx.tdb.db).findById(paymentId))?.status).toBe('cancelled')
    const steps = await paymentStore(ctx.tdb.db).transitions(paymentId)
    expect(steps.map((step) => [step.to_status, step.reason])).toEqual([
      ['pending', 'created'],
      ['cancelled', 'merchant_cancelled'],
    ])
  })

  it('answers a repeated cancel with the cancelled payment, changing nothing', async () => {
    const paymentId = await create()
    await cancel(paymentId)
    const again = await cancel(paymentId, { ...account.headers, 'pay-version': '2026-02-19.preview' })
    expect(again.statusCode).toBe(200)
    expect(again.json()).toEqual({ paymentId, status: 'cancelled', isFinal: true })
    expect(await paymentStore(ctx.tdb.db).transitions(paymentId)).toHaveLength(2)
  })

  it.each([
    ['processing', ['processing']],
    ['succeeded', ['processing', 'succeeded']],
    ['failed after processing', ['processing', 'failed']],
    ['failed', ['failed']],
    ['expired', ['expired']],
  ] as [string, MerchantPaymentStatus[]][])(
    'refuses a %s payment with 409 payment_not_cancellable, naming its status',
    async (_name, steps) => {
      const paymentId = await create()
      await walk(paymentId, steps)
      const response = await cancel(paymentId)
      expect(response.statusCode).toBe(409)
      const body = ErrorBody.parse(response.json())
      const status = steps.at(-1)
      expect(body).toMatchObject({ code: 'payment_not_cancellable', details: { status } })
      expect(body.message).toContain(`is ${status}`)
      expect((await paymentStore(ctx.tdb.db).findById(paymentId))?.status).toBe(status)
    },
  )

  it('refuses a pending payment past its deadline: it expired, and the refusal says so', async () => {
    const paymentId = await create()
    clock.advance(15 * 60_000)
    const response = await cancel(paymentId)
    expect(response.statusCode).toBe(409)
    expect(response.json()).toMatchObject({ code: 'payment_not_cancellable', details: { status: 'expired' } })
  })

  it('hides another merchant’s payment, and another partner’s, behind a 404', async () => {
    const neighbour = await accountStore(ctx.tdb.db).createMerchant({
      partnerId: account.partnerId,
      name: 'Next door',
      email: 'next@example.com',
      now: clock.now(),
    })
    const neighbours = await create({ ...account.headers, 'merchant-id': neighbour.id })
    const otherPartners = await create((await createAccount(ctx.tdb.db)).headers)
    for (const id of [neighbours, otherPartners, 'pay_unknown', `pay_${'0'.repeat(32)}`]) {
      const response = await cancel(id)
      expect(response.statusCode).toBe(404)
      expect(response.json()).toMatchObject({ code: 'payment_not_found' })
    }
    expect((await paymentStore(ctx.tdb.db).findById(neighbours))?.status).toBe('pending')
    expect((await paymentStore(ctx.tdb.db).findById(otherPartners))?.status).toBe('pending')
  })

  it('refuses a request without credentials in the spec’s shape', async () => {
    const paymentId = await create()
    const response = await ctx.app.inject({ method: 'POST', url: `/v1/merchant/payment/${paymentId}/cancel` })
    expect(response.statusCode).toBe(401)
    expect(ErrorBody.parse(response.json()).code).toBe('missing_api_key')
  })
})

describe('a cancelled payment', () => {
  it('reads cancelled in the preview’s merchant view and failed in 2026-02-18’s, final in both', async () => {
    const paymentId = await create()
    await cancel(paymentId)
    const status = (version: string) =>
      ctx.app.inject({ url: `/v1/merchant/payment/${paymentId}/status`, headers: { ...account.headers, 'pay-version': version } })
    expect((await status('2026-02-18')).json()).toEqual({ status: 'failed', isFinal: true })
    expect((await status('2026-02-19.preview')).json()).toEqual({ status: 'cancelled', isFinal: true })
  })

  it('is listed as cancelled and terminal, found by the status filter and counted apart from failed', async () => {
    const cancelled = await create()
    const failed = await create()
    await cancel(cancelled)
    await walk(failed, ['failed'])
    const list = async (status: string) => {
      const response = await ctx.app.inject({ url: `/v1/payments?status=${status}`, headers: { 'api-key': account.apiKey } })
      expect(response.statusCode).toBe(200)
      return response.json<{ data: { paymentId: string; status: string; isTerminal: boolean }[]; stats: { totalTransactions: number } }>()
    }
    const found = await list('cancelled')
    expect(found.data).toEqual([expect.objectContaining({ paymentId: cancelled, status: 'cancelled', isTerminal: true })])
    expect(found.stats.totalTransactions).toBe(1)
    expect((await list('failed')).data.map((payment) => payment.paymentId)).toEqual([failed])
    const partnerView = await ctx.app.inject({ url: `/v1/payments/${cancelled}/status`, headers: { 'api-key': account.apiKey } })
    expect(partnerView.json()).toEqual({ paymentId: cancelled, status: 'cancelled', isTerminal: true })
  })

  it('sends payment.cancelled to the endpoints that listen, in the cancel’s own commit', async () => {
    const endpoint = await ctx.app.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      headers: account.headers,
      payload: { url: 'https://hooks.corner-shop.com/webhooks' },
    })
    expect(endpoint.statusCode).toBe(201)
    expect(endpoint.json<{ endpoint: { events: string[] } }>().endpoint.events).toContain('payment.cancelled')
    const paymentId = await create()
    await cancel(paymentId)
    await cancel(paymentId)
    const events = await ctx.tdb.db.query<{ type: string; payment_id: string }>(
      'SELECT e.type, e.payment_id FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id',
    )
    expect(events).toEqual([{ type: 'payment.cancelled', payment_id: paymentId }])
  })

  it('frees its referenceId: the order can be paid by a new payment', async () => {
    const body = createBody()
    const paymentId = await create(account.headers, body)
    await cancel(paymentId)
    expect(await create(account.headers, body)).not.toBe(paymentId)
  })
})
