// The client's refunds against the real Till service (`till serve --sandbox`, started by the service's own
// launcher), listening on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TillClient } from './client.ts'
import { TillConflictError, TillNotFoundError } from './errors.ts'
import { rejection, type SandboxTill, startSandboxTill } from './till.test-helper.ts'

let sandbox: SandboxTill
let till: TillClient

beforeAll(async () => {
  sandbox = await startSandboxTill()
  till = new TillClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, merchantId: sandbox.merchantId })
})

afterAll(async () => {
  await till?.close()
  await sandbox?.stop()
})

let orders = 0
const order = () => `refund-order-${Date.now()}-${++orders}`

/** Moves a sandbox payment to `outcome` through the service's sandbox endpoint. */
async function simulate(paymentId: string, outcome: 'succeeded' | 'failed'): Promise<void> {
  const response = await fetch(`${sandbox.baseUrl}/v1/sandbox/payments/${paymentId}/simulate`, {
    method: 'POST',
    headers: { 'api-key': sandbox.apiKey, 'merchant-id': sandbox.merchantId, 'content-type': 'application/json' },
    body: JSON.stringify({ outcome }),
  })
  expect(response.status).toBe(200)
}

/** A payment of `value` EUR minor units that succeeded. */
async function paidPayment(value: string): Promise<string> {
  const { paymentId } = await till.merchantPayments.create({ amount: { unit: 'iso4217/EUR', value }, referenceId: order() })
  await simulate(paymentId, 'succeeded')
  return paymentId
}

describe('refunds.create', () => {
  it('refunds part of a succeeded payment, then the rest; more than is left is refund_exceeds_payment', async () => {
    const paymentId = await paidPayment('1000')

    const first = await till.refunds.create({ paymentId, amount: '500', reason: 'One item out of stock' })
    expect(first.lastResponse.status).toBe(201)
    expect(first).toMatchObject({ paymentId, status: 'awaiting_destination', replayed: false, destination: null, transaction: null })
    expect(first.amount?.value).toBe('500')
    expect(typeof first.claimUrl).toBe('string')

    const error = await rejection(till.refunds.create({ paymentId, amount: '600' }))
    expect(error).toBeInstanceOf(TillConflictError)
    expect(error).toMatchObject({ status: 409, code: 'refund_exceeds_payment', details: { refundable: '500' }, attempts: 1 })

    const rest = await till.refunds.create({ paymentId })
    expect(rest.amount?.value).toBe('500')
    expect(rest.id).not.toBe(first.id)

    const { data } = await till.refunds.list({ paymentId })
    expect(data.map((refund) => refund.id)).toEqual([first.id, rest.id])
  })

  it('replays the answer of an Idempotency-Key given again: the same refund, replayed', async () => {
    const paymentId = await paidPayment('800')
    const idempotencyKey = `refund-${order()}`
    const first = await till.refunds.create({ paymentId, amount: '300' }, { idempotencyKey })
    const again = await till.refunds.create({ paymentId, amount: '300' }, { idempotencyKey })
    expect(first.replayed).toBe(false)
    expect(again.replayed).toBe(true)
    expect(again.id).toBe(first.id)
    expect((await till.refunds.list({ paymentId })).data).toHaveLength(1)
  })

  it('makes a key per call: two creates with the same body are two refunds', async () => {
    const paymentId = await paidPayment('400')
    const one = await till.refunds.create({ paymentId, amount: '100' })
    const two = await till.refunds.create({ paymentId, amount: '100' })
    expect(two.id).not.toBe(one.id)
    expect(two.replayed).toBe(false)
  })

  it('refuses a payment that has not succeeded with payment_not_refundable', async () => {
    const { paymentId } = await till.merchantPayments.create({ amount: { unit: 'iso4217/EUR', value: '700' }, referenceId: order() })
    const error = await rejection(till.refunds.create({ paymentId, amount: '100' }))
    expect(error).toBeInstanceOf(TillConflictError)
    expect(error).toMatchObject({ status: 409, code: 'payment_not_refundable' })
  })
})

describe('refunds.get, cancel and markRefunded', () => {
  it('reads a refund as created', async () => {
    const paymentId = await paidPayment('900')
    const created = await till.refunds.create({ paymentId, amount: '200' })
    const { replayed: _, ...refund } = created
    expect(await till.refunds.get(created.id)).toEqual(refund)
  })

  it('cancels a refund, and again when repeated; the amount it held can be refunded again', async () => {
    const paymentId = await paidPayment('600')
    const created = await till.refunds.create({ paymentId })
    const cancelled = await till.refunds.cancel(created.id)
    expect(cancelled).toMatchObject({ id: created.id, status: 'cancelled' })
    expect((await till.refunds.cancel(created.id)).status).toBe('cancelled')
    expect((await till.refunds.create({ paymentId })).amount?.value).toBe('600')
  })

  it('marks a refund refunded without a hash: succeeded; then it can be neither cancelled nor marked again', async () => {
    const paymentId = await paidPayment('500')
    const created = await till.refunds.create({ paymentId, amount: '250' })
    const marked = await till.refunds.markRefunded(created.id)
    expect(marked).toMatchObject({ id: created.id, status: 'succeeded' })
    expect((await till.refunds.get(created.id)).status).toBe('succeeded')

    const notCancellable = await rejection(till.refunds.cancel(created.id))
    expect(notCancellable).toBeInstanceOf(TillConflictError)
    expect(notCancellable).toMatchObject({ code: 'refund_not_cancellable', details: { status: 'succeeded' } })
    const notPayable = await rejection(till.refunds.markRefunded(created.id))
    expect(notPayable).toBeInstanceOf(TillConflictError)
    expect(notPayable).toMatchObject({ code: 'refund_not_payable', details: { status: 'succeeded' } })
  })

  it('gives an unknown refund TillNotFoundError refund_not_found', async () => {
    const error = await rejection(till.refunds.get(`rfd_${'0'.repeat(32)}`))
    expect(error).toBeInstanceOf(TillNotFoundError)
    expect(error).toMatchObject({ status: 404, code: 'refund_not_found' })
  })

  it('refuses an id that would change the route with a TypeError, before sending anything', async () => {
    await expect(till.refunds.get('../payments')).rejects.toThrow(TypeError)
    await expect(till.refunds.cancel('a/b')).rejects.toThrow(/refundId "a\/b" must be/)
    await expect(till.refunds.list({ paymentId: 'pay x' })).rejects.toThrow(/paymentId "pay x" must be/)
  })
})

describe('sandbox.simulate with a refund id', () => {
  it("plays the merchant's wallet: the refund, given a test account, succeeds", async () => {
    const paymentId = await paidPayment('800')
    const refund = await till.refunds.create({ paymentId })
    const paid = await till.sandbox.simulate(refund.id as `rfd_${string}`, 'succeeded')
    expect(paid).toMatchObject({ id: refund.id, status: 'succeeded' })
    expect(paid.destination).toMatch(/^eip155:8453:0x[0-9a-fA-F]{40}$/)
    expect((await till.refunds.get(refund.id)).status).toBe('succeeded')
  })
})
