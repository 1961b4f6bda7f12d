// Refunds over the merchant API (issue 24, point 2), on the sandbox rail: creating them within what was paid,
// under concurrency and idempotency; claiming, paying, cancelling and marking them; every refusal in the
// spec's error shape.
import { ErrorBody, Refund } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccount, createBody, testClock, type Account, useTestApp } from '../../test/fixtures.ts'

const clock = testClock()
const ctx = useTestApp({ clock, config: { sandbox: true } })
let account: Account
beforeEach(async () => {
  clock.set(new Date('2026-11-21T12:00:00.000Z'))
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

let keys = 0
const post = (url: string, payload: object = {}, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url, headers: { ...account.headers, ...headers }, payload })
const createRefund = (payload: object, key = `key-${++keys}`) => post('/v1/refunds', payload, { 'idempotency-key': key })
const get = (url: string) => ctx.app.inject({ url, headers: account.headers })

/** A payment of 19.99 EUR the sandbox's paying wallet paid: 21.672798 USDC at the sandbox's fixed rate. */
async function paidPayment(value = '1999'): Promise<{ paymentId: string; tokens: bigint }> {
  const created = await post('/v1/merchant/payment', createBody({ amount: { unit: 'iso4217/EUR', value } }))
  const { paymentId } = created.json<{ paymentId: string }>()
  expect((await post(`/v1/sandbox/payments/${paymentId}/simulate`, { outcome: 'succeeded' })).statusCode).toBe(200)
  const listed = await ctx.app.inject({ url: '/v1/payments?limit=200', headers: { 'api-key': account.apiKey } })
  const payment = listed
    .json<{ data: { paymentId: string; tokenAmount: { value: string } }[] }>()
    .data.find((p) => p.paymentId === paymentId)
  return { paymentId, tokens: BigInt(payment?.tokenAmount.value ?? '0') }
}

const refundOf = (response: { json: () => unknown }) => Refund.parse(response.json())

describe('POST /v1/refunds', () => {
  it('refunds part of a payment at its own rate, then the rest: the tokens add up to exactly what was paid', async () => {
    const { paymentId, tokens } = await paidPayment()
    const first = await createRefund({ paymentId, amount: '500', reason: 'One cup was broken' })
    expect(first.statusCode).toBe(201)
    const part = refundOf(first)
    expect(part).toMatchObject({ paymentId, status: 'awaiting_destination', reason: 'One cup was broken', destination: null })
    expect(part.amount?.value).toBe('500')
    expect(BigInt(part.tokenAmount.value)).toBe((500n * tokens) / 1999n)
    expect(part.claimUrl).toMatch(/\/refunds\/rfd_[0-9a-z]{32}\/claim\?token=/)
    expect(part.payUrl).toMatch(/\/refunds\/rfd_[0-9a-z]{32}\/pay\?token=/)
    expect(part.reference).toMatch(/^0x[0-9a-f]{32}$/)

    const rest = refundOf(await createRefund({ paymentId }))
    expect(rest.amount?.value).toBe('1499')
    expect(BigInt(rest.tokenAmount.value) + BigInt(part.tokenAmount.value)).toBe(tokens)

    const over = await createRefund({ paymentId, amount: '1' })
    expect(over.statusCode).toBe(409)
    expect(ErrorBody.parse(over.json())).toMatchObject({ code: 'refund_exceeds_payment', details: { refundable: '0' } })
    const listed = await get(`/v1/refunds?paymentId=${paymentId}`)
    expect(listed.json<{ data: Refund[] }>().data.map((refund) => refund.id)).toEqual([part.id, rest.id])
  })

  it('never lets 16 concurrent refunds add up to more than was paid', async () => {
    const { paymentId } = await paidPayment('1600')
    const answers = await Promise.all(Array.from({ length: 16 }, () => createRefund({ paymentId, amount: '300' })))
    const statuses = answers.map((answer) => answer.statusCode).sort()
    expect(statuses.filter((status) => status === 201)).toHaveLength(5)
    expect(statuses.filter((status) => status === 409)).toHaveLength(11)
    for (const refused of answers.filter((answer) => answer.statusCode === 409)) {
      expect(refused.json()).toMatchObject({ code: 'refund_exceeds_payment' })
    }
    const [row] = await ctx.tdb.db.query<{ held: string }>('SELECT refund_held_minor::text AS held FROM payments WHERE id = $1', [
      paymentId,
    ])
    expect(row?.held).toBe('1500')
  })

  it('replays an Idempotency-Key’s first answer, and refuses the key with another body', async () => {
    const { paymentId } = await paidPayment()
    const first = await createRefund({ paymentId, amount: '100' }, 'same-key')
    const again = await createRefund({ paymentId, amount: '100' }, 'same-key')
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(refundOf(again).id).toBe(refundOf(first).id)
    const other = await createRefund({ paymentId, amount: '200' }, 'same-key')
    expect(other.statusCode).toBe(409)
    expect(other.json()).toMatchObject({ code: 'idempotency_conflict' })
    expect((await get(`/v1/refunds?paymentId=${paymentId}`)).json<{ data: Refund[] }>().data).toHaveLength(1)
  })

  it.each([
    ['no Idempotency-Key', {}, null, 400, 'missing_idempotency_key'],
    ['neither paymentId nor unappliedTransferId', {}, 'k', 400, 'params_validation'],
    ['an amount that is not minor units', { amount: '1.50' }, 'k', 400, 'params_validation'],
    ['an unknown payment', { paymentId: 'pay_unknown' }, 'k', 404, 'payment_not_found'],
    [
      'an unknown unapplied transfer',
      { unappliedTransferId: `eip155:8453/0x${'ab'.repeat(32)}` },
      'k',
      404,
      'unapplied_transfer_not_found',
    ],
  ] as const)('refuses %s in the spec’s error shape', async (_name, body, key, status, code) => {
    const response = await post('/v1/refunds', body, key ? { 'idempotency-key': `${key}-${++keys}` } : {})
    expect(response.statusCode).toBe(status)
    expect(ErrorBody.parse(response.json()).code).toBe(code)
  })

  it('lists only the merchant’s own payment’s refunds: another’s, or none named, is refused', async () => {
    const stranger = await createAccount(ctx.tdb.db, { sandbox: true })
    const theirs = await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: stranger.headers, payload: createBody() })
    const list = await get(`/v1/refunds?paymentId=${theirs.json<{ paymentId: string }>().paymentId}`)
    expect(list.statusCode).toBe(404)
    expect(list.json()).toMatchObject({ code: 'payment_not_found' })
    const neither = await get('/v1/refunds')
    expect(neither.statusCode).toBe(400)
    expect(ErrorBody.parse(neither.json()).code).toBe('params_validation')
    const unknown = await get(`/v1/refunds?unappliedTransferId=eip155:8453/0x${'cd'.repeat(32)}`)
    expect(unknown.json()).toMatchObject({ code: 'unapplied_transfer_not_found' })
  })

  it('refuses a payment that has not succeeded with payment_not_refundable, naming its status', async () => {
    const created = await post('/v1/merchant/payment', createBody())
    const response = await createRefund({ paymentId: created.json<{ paymentId: string }>().paymentId })
    expect(response.statusCode).toBe(409)
    expect(response.json()).toMatchObject({ code: 'payment_not_refundable', details: { status: 'pending' } })
  })

  it('refuses a destination off the payment’s network, or without its checksum, naming the field', async () => {
    const { paymentId } = await paidPayment()
    for (const destination of [
      'eip155:1:0x52908400098527886E0F7030069857D2E4169EE7',
      'eip155:8453:0x52908400098527886e0f7030069857d2e4169ee7',
    ]) {
      const response = await createRefund({ paymentId, destination })
      expect(response.statusCode).toBe(400)
      expect(ErrorBody.parse(response.json()).issues?.[0]?.field).toBe('destination')
    }
    const ready = refundOf(await createRefund({ paymentId, destination: 'eip155:8453:0x52908400098527886E0F7030069857D2E4169EE7' }))
    expect(ready).toMatchObject({ status: 'ready', claimUrl: null })
  })
})

describe('a refund afterwards', () => {
  it('is cancelled before it is paid, again when repeated, and frees what it held', async () => {
    const { paymentId } = await paidPayment()
    const refund = refundOf(await createRefund({ paymentId }))
    const cancelled = await post(`/v1/refunds/${refund.id}/cancel`)
    expect(cancelled.statusCode).toBe(200)
    expect(refundOf(cancelled)).toMatchObject({ status: 'cancelled', claimUrl: null, payUrl: null })
    expect(refundOf(await post(`/v1/refunds/${refund.id}/cancel`)).status).toBe('cancelled')
    expect((await createRefund({ paymentId })).statusCode).toBe(201)
  })

  it('is marked refunded on the merchant’s word, then can be neither cancelled nor marked again', async () => {
    const { paymentId } = await paidPayment()
    const refund = refundOf(await createRefund({ paymentId, amount: '999' }))
    expect(refundOf(await post(`/v1/refunds/${refund.id}/mark-refunded`)).status).toBe('succeeded')
    const cancel = await post(`/v1/refunds/${refund.id}/cancel`)
    expect(cancel.statusCode).toBe(409)
    expect(cancel.json()).toMatchObject({ code: 'refund_not_cancellable', details: { status: 'succeeded' } })
    expect((await post(`/v1/refunds/${refund.id}/mark-refunded`)).json()).toMatchObject({ code: 'refund_not_payable' })
    const listed = await ctx.app.inject({ url: `/v1/payments?limit=200`, headers: { 'api-key': account.apiKey } })
    const payment = listed.json<{ data: { paymentId: string; refunded?: unknown }[] }>().data.find((p) => p.paymentId === paymentId)
    expect(payment?.refunded).toEqual({ amount: expect.objectContaining({ value: '999' }), count: 1 })
  })

  it('refuses mark-refunded with a hash the sandbox cannot check, naming transactionHash', async () => {
    const { paymentId } = await paidPayment()
    const refund = refundOf(await createRefund({ paymentId, destination: 'eip155:8453:0x52908400098527886E0F7030069857D2E4169EE7' }))
    const response = await post(`/v1/refunds/${refund.id}/mark-refunded`, { transactionHash: `0x${'12'.repeat(32)}` })
    expect(response.statusCode).toBe(400)
    expect(ErrorBody.parse(response.json()).issues?.[0]?.field).toBe('transactionHash')
    expect((await post(`/v1/refunds/${refund.id}/mark-refunded`, { transactionHash: 'not a hash' })).statusCode).toBe(400)
  })

  it('is paid by the sandbox simulate call, and another merchant’s refund is not found', async () => {
    const { paymentId } = await paidPayment()
    const refund = refundOf(await createRefund({ paymentId }))
    const paid = await post(`/v1/sandbox/refunds/${refund.id}/simulate`, { outcome: 'succeeded' })
    expect(refundOf(paid)).toMatchObject({ status: 'succeeded', transaction: { networkId: 'eip155:8453' } })
    expect(refundOf(paid).destination).toMatch(/^eip155:8453:0x[0-9a-fA-F]{40}$/)
    const stranger = await createAccount(ctx.tdb.db, { sandbox: true })
    const theirs = await ctx.app.inject({ url: `/v1/refunds/${refund.id}`, headers: stranger.headers })
    expect(theirs.statusCode).toBe(404)
    expect(theirs.json()).toMatchObject({ code: 'refund_not_found' })
  })
})
