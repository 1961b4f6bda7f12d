// The client against the real Till service (`till serve --sandbox`, started by the service's own launcher),
// listening on 127.0.0.1.
import { rejection, type SandboxTill, startSandboxTill } from './till.test-helper.ts'
import { Agent, type Dispatcher } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TillClient } from './client.ts'
import type { TillClientOptions } from './config.ts'
import { TillAuthenticationError, TillConflictError, TillInvalidRequestError, TillNotFoundError } from './errors.ts'

let sandbox: SandboxTill
let baseUrl: string
const clients: TillClient[] = []
const agents: Agent[] = []
const tills: SandboxTill[] = []

beforeAll(async () => {
  sandbox = await startSandboxTill()
  tills.push(sandbox)
  baseUrl = sandbox.baseUrl
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await Promise.all(agents.map((a) => a.close()))
  await Promise.all(tills.map((till) => till.stop()))
})

function client(extra: Partial<TillClientOptions> = {}): TillClient {
  const till = new TillClient({ baseUrl, apiKey: sandbox.apiKey, merchantId: sandbox.merchantId, ...extra })
  clients.push(till)
  return till
}

/** A dispatcher that rewrites each request's headers on the way out, as a misconfigured proxy might. */
function rewritingHeaders(rewrite: (headers: Record<string, string>) => Record<string, string>): Dispatcher {
  const agent = new Agent()
  agents.push(agent)
  return agent.compose(
    (dispatch) => (options, handler) =>
      dispatch({ ...options, headers: rewrite({ ...(options.headers as Record<string, string>) }) }, handler),
  )
}

let orders = 0
const order = () => `order-${Date.now()}-${++orders}`
const eur = (value: string | bigint, referenceId = order()) => ({ amount: { unit: 'iso4217/EUR', value }, referenceId })

/** Moves a sandbox payment to `outcome` through the service's sandbox endpoint. */
async function simulate(paymentId: string, outcome: 'succeeded' | 'failed'): Promise<void> {
  const response = await fetch(`${baseUrl}/v1/sandbox/payments/${paymentId}/simulate`, {
    method: 'POST',
    headers: { 'api-key': sandbox.apiKey, 'merchant-id': sandbox.merchantId, 'content-type': 'application/json' },
    body: JSON.stringify({ outcome }),
  })
  expect(response.status).toBe(200)
}

describe('merchantPayments.create', () => {
  it('creates a payment: 201 and the shape of spec 2.3', async () => {
    const payment = await client().merchantPayments.create(eur(1999n))
    expect(payment).toMatchObject({ status: 'pending', isFinal: false, pollInMs: 2000, replayed: false })
    expect(payment.paymentId).toMatch(/^pay_[0-9a-z]{32}$/)
    expect(payment.gatewayUrl).toBe(`${sandbox.checkoutUrl}/${payment.paymentId}`)
    expect(payment.expiresAt).toBeGreaterThan(Date.now() / 1000)
    expect(payment.lastResponse).toMatchObject({ status: 201, payVersion: '2026-02-18', attempts: 1 })
    expect(payment.lastResponse.requestId).toMatch(/^req_/)
  })

  it('returns the same open payment for the same referenceId, marked replayed', async () => {
    const till = client()
    const body = eur('500')
    const first = await till.merchantPayments.create(body)
    const again = await till.merchantPayments.create(body)
    expect(again.paymentId).toBe(first.paymentId)
    expect(again.replayed).toBe(true)
    expect(again.lastResponse.status).toBe(200)
  })

  it('gives a paid referenceId a TillConflictError reference_already_paid, not retried', async () => {
    const till = client()
    const body = eur('700')
    const first = await till.merchantPayments.create(body)
    await simulate(first.paymentId, 'succeeded')
    const error = await rejection(till.merchantPayments.create(body))
    expect(error).toBeInstanceOf(TillConflictError)
    expect(error).toMatchObject({ status: 409, code: 'reference_already_paid', details: { paymentId: first.paymentId }, attempts: 1 })
    expect(error.payVersion).toBe('2026-02-18')
  })

  it('gives a referenceId in use with another amount reference_in_use', async () => {
    const till = client()
    const referenceId = order()
    await till.merchantPayments.create(eur('100', referenceId))
    const error = await rejection(till.merchantPayments.create(eur('101', referenceId)))
    expect(error).toBeInstanceOf(TillConflictError)
    expect(error.code).toBe('reference_in_use')
  })

  it('carries the field issues of a 400 in a TillInvalidRequestError', async () => {
    const error = await rejection(
      client().merchantPayments.create({ amount: { unit: 'iso4217/EUR', value: 19.99 as unknown as string } } as never),
    )
    expect(error).toBeInstanceOf(TillInvalidRequestError)
    expect(error).toMatchObject({ status: 400, code: 'params_validation', attempts: 1 })
    const fields = error.issues.map((issue) => issue.field)
    expect(fields).toEqual(expect.arrayContaining(['amount.value', 'referenceId']))
    expect(error.issues.find((issue) => issue.field === 'amount.value')?.message).toMatch(/not a JSON number/)
  })

  it('gives an unknown merchant a TillNotFoundError merchant_not_found', async () => {
    const error = await rejection(client({ merchantId: 'mer_doesnotexist' }).merchantPayments.create(eur('100')))
    expect(error).toBeInstanceOf(TillNotFoundError)
    expect(error.code).toBe('merchant_not_found')
  })
})

describe('status', () => {
  it('reads the merchant view (4.3) and the partner view (4.4) as the payment moves', async () => {
    const till = client()
    const { paymentId } = await till.merchantPayments.create(eur('1234'))
    expect(await till.merchantPayments.status(paymentId)).toEqual({ status: 'pending', isFinal: false })
    expect(await till.payments.status(paymentId)).toEqual({ paymentId, status: 'requires_action', isTerminal: false })
    await simulate(paymentId, 'failed')
    expect(await till.merchantPayments.status(paymentId)).toEqual({ status: 'failed', isFinal: true })
    const partner = await till.payments.status(paymentId)
    expect(partner).toEqual({ paymentId, status: 'failed', isTerminal: true })
    expect(partner.lastResponse.payVersion).toBe('2026-02-18')
  })

  it('reads the partner view without a merchantId', async () => {
    const { paymentId } = await client().merchantPayments.create(eur('42'))
    const partnerOnly = client({ merchantId: undefined })
    await expect(partnerOnly.payments.status(paymentId)).resolves.toMatchObject({ paymentId })
  })

  it('gives an unknown payment a TillNotFoundError payment_not_found on both views', async () => {
    const till = client()
    const missing = 'pay_00000000000000000000000000000000'
    // Each read starts when its turn comes: a second request made up front could fail before anything
    // awaits it, an unhandled rejection.
    for (const read of [() => till.merchantPayments.status(missing), () => till.payments.status(missing)]) {
      const error = await rejection(read())
      expect(error).toBeInstanceOf(TillNotFoundError)
      expect(error).toMatchObject({ status: 404, code: 'payment_not_found', attempts: 1 })
    }
  })
})

describe('merchantPayments.cancel', () => {
  it('cancels an open payment: cancelled on the preview, failed on 2026-02-18, and again when repeated', async () => {
    const created = await client().merchantPayments.create(eur('1500'))
    const preview = client({ payVersion: '2026-02-19.preview' })
    const cancelled = await preview.merchantPayments.cancel(created.paymentId)
    expect(cancelled).toMatchObject({ paymentId: created.paymentId, status: 'cancelled', isFinal: true })
    expect(await client({ payVersion: '2026-02-18' }).merchantPayments.cancel(created.paymentId)).toMatchObject({
      status: 'failed',
      isFinal: true,
    })
    expect((await client().payments.status(created.paymentId)).status).toBe('cancelled')
  })

  it('refuses a payment that succeeded with TillConflictError payment_not_cancellable, naming its status', async () => {
    const created = await client().merchantPayments.create(eur('1600'))
    await simulate(created.paymentId, 'succeeded')
    const error = await rejection(client().merchantPayments.cancel(created.paymentId))
    expect(error).toBeInstanceOf(TillConflictError)
    expect(error).toMatchObject({ code: 'payment_not_cancellable', status: 409, details: { status: 'succeeded' } })
  })

  it('gives an unknown payment TillNotFoundError payment_not_found', async () => {
    const error = await rejection(client().merchantPayments.cancel(`pay_${'0'.repeat(32)}`))
    expect(error).toBeInstanceOf(TillNotFoundError)
  })
})

describe('authentication', () => {
  it('gives an unknown key a TillAuthenticationError invalid_api_key, without the key', async () => {
    const wrongKey = 'till_sk_test_0000000000000000000000000000'
    const error = await rejection(client({ apiKey: wrongKey }).payments.status('pay_x'))
    expect(error).toBeInstanceOf(TillAuthenticationError)
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', attempts: 1 })
    expect(JSON.stringify(error) + error.message + error.stack).not.toContain(wrongKey)
  })

  it('gives a request whose key was dropped on the way missing_api_key', async () => {
    const dropKey = rewritingHeaders((headers) => {
      delete headers['Api-Key']
      return headers
    })
    const error = await rejection(client({ dispatcher: dropKey }).merchantPayments.create(eur('100')))
    expect(error).toBeInstanceOf(TillAuthenticationError)
    expect(error.code).toBe('missing_api_key')
  })
})

describe('Pay-Version', () => {
  it('sends the version asked for and exposes the one resolved', async () => {
    const till = client({ payVersion: '2026-02-19.preview' })
    const payment = await till.merchantPayments.create(eur('100'))
    expect(payment.lastResponse.payVersion).toBe('2026-02-19.preview')
    const status = await till.payments.status(payment.paymentId, { payVersion: '2026-02-18' })
    expect(status.lastResponse.payVersion).toBe('2026-02-18')
  })

  it('gives a version older than the pin api_version_downgrade', async () => {
    // A second sandbox, its partner pinned to the preview version.
    const pinned = await startSandboxTill({ args: ['--sandbox-api-version', '2026-02-19.preview'] })
    tills.push(pinned)
    const till = client({ baseUrl: pinned.baseUrl, apiKey: pinned.apiKey, merchantId: pinned.merchantId, payVersion: '2026-02-18' })
    const error = await rejection(till.merchantPayments.create(eur('100')))
    expect(error).toBeInstanceOf(TillInvalidRequestError)
    expect(error).toMatchObject({ code: 'api_version_downgrade', details: { pinnedVersion: '2026-02-19.preview' } })
  })

  it('refuses an unknown version at construction, and maps the server refusing one to unknown_api_version', async () => {
    expect(() => client({ payVersion: '2031-01-01' as never })).toThrow(expect.objectContaining({ code: 'unknown_api_version' }))
    // A client built on a newer contract than the server's sends a version the server does not know.
    const newer = rewritingHeaders((headers) => ({ ...headers, 'Pay-Version': '2031-01-01' }))
    const error = await rejection(client({ dispatcher: newer }).payments.status('pay_x'))
    expect(error).toBeInstanceOf(TillInvalidRequestError)
    expect(error).toMatchObject({ status: 400, code: 'unknown_api_version', attempts: 1 })
  })
})

describe('sandbox hooks', () => {
  it('simulate moves a payment along legal steps, and the merchant view sees it', async () => {
    const till = client()
    const created = await till.merchantPayments.create(eur('1250'))
    const moved = await till.sandbox.simulate(created.paymentId, 'succeeded')
    expect(moved).toMatchObject({ paymentId: created.paymentId, status: 'succeeded', isTerminal: true })
    expect(moved.fiatAmount?.value).toBe('1250')
    expect(await till.merchantPayments.status(created.paymentId)).toEqual({ status: 'succeeded', isFinal: true })
  })

  it('reachDeadline expires a pending payment by its deadline', async () => {
    const till = client()
    const created = await till.merchantPayments.create(eur('990'))
    expect(await till.sandbox.reachDeadline(created.paymentId)).toMatchObject({ status: 'expired', isTerminal: true })
    expect(await till.merchantPayments.status(created.paymentId)).toEqual({ status: 'expired', isFinal: true })
  })

  it('confirm without a pending confirmation is a conflict, and the payment is untouched', async () => {
    const till = client()
    const created = await till.merchantPayments.create(eur('500'))
    const error = await rejection(till.sandbox.confirm(created.paymentId))
    expect(error).toBeInstanceOf(TillConflictError)
    expect(error.code).toBe('invalid_transition')
    expect(await till.merchantPayments.status(created.paymentId)).toEqual({ status: 'pending', isFinal: false })
  })
})
