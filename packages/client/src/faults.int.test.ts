// The client against a real local HTTP server that fails on purpose; attempts are counted on the server.
import { inspect } from 'node:util'
import { MerchantPaymentStatusResponse } from '@till/contract'
import { Agent, type Dispatcher } from 'undici'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { TillClient } from './client.ts'
import { type ClientHooks, resolveConfig, type TillClientOptions } from './config.ts'
import {
  TillApiError,
  TillAuthenticationError,
  TillConflictError,
  TillConnectionError,
  TillInvalidRequestError,
  TillRateLimitError,
  TillResponseValidationError,
  TillTimeoutError,
} from './errors.ts'
import { type FaultServer, json, raw, reset, silence, stall, startFaultServer } from './fault-server.test-helper.ts'
import { RequestCore } from './request.ts'
import { sleep } from './retry.ts'

const KEY = 'till_sk_test_f4ult5erver0123456789abcdef'
const PAYMENT = 'pay_0123456789abcdefghijklmnopqrstuv'
const created = {
  paymentId: PAYMENT,
  gatewayUrl: `https://checkout.till.test/pay/${PAYMENT}`,
  status: 'pending',
  expiresAt: 1_800_000_000,
  isFinal: false,
  pollInMs: 2000,
}
const pending = { status: 'pending', isFinal: false }
const body = { amount: { unit: 'iso4217/EUR', value: '1999' }, referenceId: 'order-1' }
const unavailable = json(503, { message: 'busy', code: 'service_unavailable' })
const internal = json(500, { message: 'oops', code: 'internal_error' })

let server: FaultServer
const clients: TillClient[] = []
beforeAll(async () => {
  server = await startFaultServer()
})
afterEach(async () => {
  vi.useRealTimers()
  await Promise.all(clients.splice(0).map((c) => c.close()))
})

/**
 * Attempt timers move only when the test says so; the sockets stay real. A test then asserts when a timeout
 * fires, and none fires because the machine happens to be slow.
 */
const handTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })

/** Settles like `promise`, and says meanwhile whether it has. */
function watched<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false
  const settledPromise = promise.finally(() => {
    done = true
  })
  settledPromise.catch(() => {})
  return { promise: settledPromise, settled: () => done }
}
afterAll(() => server.close())

/** A client with millisecond backoff, so retries cost no time. */
function client(extra: Partial<TillClientOptions> = {}, hooks?: ClientHooks): TillClient {
  const till = new TillClient(
    { baseUrl: server.url, apiKey: KEY, merchantId: 'mer_1', retryTuning: { baseDelayMs: 2, maxDelayMs: 5 }, ...extra },
    hooks,
  )
  clients.push(till)
  return till
}

/** Records the waits between attempts instead of waiting. */
function recordedSleeps(): { delays: number[]; hooks: ClientHooks } {
  const delays: number[] = []
  return { delays, hooks: { sleep: async (ms) => void delays.push(ms) } }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

describe('what is sent', () => {
  it('sends the key, the merchant, the version and the JSON body, under the base path', async () => {
    server.script(json(201, created))
    const till = client({ baseUrl: `${server.url}/till/`, payVersion: '2026-02-19.preview' })
    const payment = await till.merchantPayments.create({ ...body, amount: { unit: 'iso4217/EUR', value: 1999n } })
    const [sent] = server.requests
    expect(sent).toMatchObject({ method: 'POST', url: '/till/v1/merchant/payment' })
    expect(sent?.headers).toMatchObject({
      'api-key': KEY,
      'merchant-id': 'mer_1',
      'pay-version': '2026-02-19.preview',
      'content-type': 'application/json',
      accept: 'application/json',
    })
    expect(sent?.headers['user-agent']).toMatch(/^till-client-node\//)
    expect(JSON.parse(sent?.body ?? '')).toEqual({ amount: { unit: 'iso4217/EUR', value: '1999' }, referenceId: 'order-1' })
    expect(payment).toEqual({ ...created, replayed: false })
  })

  it('exposes the response, Pay-Version included, on a lastResponse that stays out of the JSON', async () => {
    server.script(json(200, pending, { 'pay-version': '2026-02-19.preview', 'request-id': 'req_42' }))
    const status = await client().merchantPayments.status(PAYMENT)
    expect(status.lastResponse).toMatchObject({
      status: 200,
      payVersion: '2026-02-19.preview',
      requestId: 'req_42',
      method: 'GET',
      path: `/v1/merchant/payment/${PAYMENT}/status`,
      attempts: 1,
    })
    expect(JSON.stringify(status)).toBe(JSON.stringify(pending))
    expect(Object.keys(status)).toEqual(['status', 'isFinal'])
  })

  it('sends no Pay-Version unless asked, and takes per-request merchantId and payVersion', async () => {
    server.script(json(200, pending))
    const till = client()
    await till.merchantPayments.status(PAYMENT)
    await till.merchantPayments.status(PAYMENT, { merchantId: 'mer_2', payVersion: '2026-02-19.preview' })
    expect(server.requests[0]?.headers['pay-version']).toBeUndefined()
    expect(server.requests[1]?.headers).toMatchObject({ 'merchant-id': 'mer_2', 'pay-version': '2026-02-19.preview' })
  })

  it('sends no Merchant-Id to the partner endpoint', async () => {
    server.script(json(200, { paymentId: PAYMENT, status: 'requires_action', isTerminal: false }))
    const status = await client().payments.status(PAYMENT)
    expect(status).toEqual({ paymentId: PAYMENT, status: 'requires_action', isTerminal: false })
    expect(server.requests[0]?.url).toBe(`/v1/payments/${PAYMENT}/status`)
    expect(server.requests[0]?.headers['merchant-id']).toBeUndefined()
  })

  it('tells a replayed create from a new one', async () => {
    server.script(json(200, created, { 'idempotent-replayed': 'true' }))
    expect(await client().merchantPayments.create(body)).toMatchObject({ paymentId: PAYMENT, replayed: true })
  })

  it('refuses before sending when no merchantId is known, or the payment id is not one', async () => {
    server.script(json(200, pending))
    const till = client({ merchantId: undefined })
    await expect(till.merchantPayments.status(PAYMENT)).rejects.toThrow(/needs a merchantId/)
    await expect(client().merchantPayments.status('../../v1/payments')).rejects.toThrow(TypeError)
    await expect(client().payments.status('')).rejects.toThrow(TypeError)
    expect(server.requests).toHaveLength(0)
  })
})

describe('retries', () => {
  it('repeats a GET after a 503 and returns the later answer', async () => {
    server.script(unavailable, json(200, pending))
    const status = await client().merchantPayments.status(PAYMENT)
    expect(status).toEqual(pending)
    expect(status.lastResponse.attempts).toBe(2)
    expect(server.requests).toHaveLength(2)
  })

  it('gives up after maxRetries, with the last error', async () => {
    server.script(internal)
    const error = await rejection(client().merchantPayments.status(PAYMENT))
    expect(error).toBeInstanceOf(TillApiError)
    expect(error).toMatchObject({ code: 'internal_error', status: 500, attempts: 3 })
    expect(server.requests).toHaveLength(3)
  })

  it('takes maxRetries per request', async () => {
    server.script(internal)
    await expect(client().merchantPayments.status(PAYMENT, { maxRetries: 0 })).rejects.toThrow(TillApiError)
    expect(server.requests).toHaveLength(1)
  })

  it('repeats a create after a 500 with the same body, referenceId included', async () => {
    server.script(internal, json(200, created, { 'idempotent-replayed': 'true' }))
    const payment = await client().merchantPayments.create(body)
    expect(payment).toMatchObject({ paymentId: PAYMENT, replayed: true })
    expect(server.requests).toHaveLength(2)
    expect(server.requests[1]?.body).toBe(server.requests[0]?.body)
  })

  it("repeats a merchant create under one generated Idempotency-Key, and takes the caller's own", async () => {
    const merchant = { id: 'mer_1', name: 'Tea', email: 't@x.io', status: 'active', createdAt: '2026-02-18T10:00:00Z', iconUrl: null }
    server.script(internal, json(201, { merchant }, { 'idempotent-replayed': 'true' }))
    const first = await client().merchants.create({ merchantName: 'Tea', merchantEmail: 't@x.io' })
    expect(first).toMatchObject({ merchant, replayed: true })
    const keys = server.requests.map((request) => request.headers['idempotency-key'])
    expect(keys).toHaveLength(2)
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(keys[1]).toBe(keys[0])
    expect(server.requests[0]?.headers['merchant-id']).toBeUndefined()
    server.script(json(201, { merchant }))
    await client().merchants.create({ merchantName: 'Tea', merchantEmail: 't@x.io' }, { idempotencyKey: 'onboarding-42' })
    expect(server.requests.at(-1)?.headers['idempotency-key']).toBe('onboarding-42')
    await client().merchants.create({ merchantName: 'Tea', merchantEmail: 't@x.io' })
    expect(server.requests.at(-1)?.headers['idempotency-key']).not.toBe(keys[0])
  })

  it('never repeats a 4xx', async () => {
    server.script(json(409, { message: 'paid', code: 'reference_already_paid', details: { paymentId: PAYMENT } }))
    const error = await rejection(client().merchantPayments.create(body))
    expect(error).toBeInstanceOf(TillConflictError)
    expect(error).toMatchObject({ code: 'reference_already_paid', details: { paymentId: PAYMENT }, attempts: 1 })
    server.script(json(400, { message: 'bad', code: 'params_validation', issues: [{ field: 'referenceId', message: 'is required' }] }))
    await expect(client().merchantPayments.status(PAYMENT)).rejects.toThrow(TillInvalidRequestError)
    expect(server.requests).toHaveLength(1)
  })

  it('never repeats a non-idempotent request the server may have acted on', async () => {
    const core = new RequestCore(KEY, resolveConfig({ baseUrl: server.url, apiKey: KEY, retryTuning: { baseDelayMs: 1 } }), undefined)
    const endpoint = {
      method: 'POST',
      path: '/v1/not-idempotent',
      body: {},
      schema: MerchantPaymentStatusResponse,
      idempotent: false,
    } as const
    try {
      for (const answer of [internal, unavailable, reset, json(429, { message: 'slow', code: 'rate_limited' }, { 'retry-after': '0' })]) {
        server.script(answer)
        await expect(core.request(endpoint)).rejects.toThrow()
        expect(server.requests).toHaveLength(1)
      }
      // The same endpoint marked idempotent is repeated: the difference is the flag alone.
      server.script(internal, json(200, pending))
      await expect(core.request({ ...endpoint, idempotent: true })).resolves.toMatchObject({ data: pending })
      expect(server.requests).toHaveLength(2)
    } finally {
      await core.close()
    }
  })

  it('waits what Retry-After says, in seconds', async () => {
    server.script(json(429, { message: 'slow down', code: 'rate_limited' }, { 'retry-after': '1' }), json(200, pending))
    const { delays, hooks } = recordedSleeps()
    await expect(client({}, hooks).merchantPayments.status(PAYMENT)).resolves.toEqual(pending)
    expect(delays).toEqual([1_000])
    expect(server.requests).toHaveLength(2)
  })

  it('waits what Retry-After says, as an HTTP date', async () => {
    // The wall clock stands still, so the date is exactly 3 s ahead when the client reads it.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-02-18T12:00:00.000Z') })
    const at = new Date(Date.now() + 3_000).toUTCString()
    server.script(json(503, { message: 'busy', code: 'service_unavailable' }, { 'retry-after': at }), json(200, pending))
    const { delays, hooks } = recordedSleeps()
    await client({}, hooks).merchantPayments.status(PAYMENT)
    expect(delays).toEqual([3_000])
  })

  it('hands a Retry-After longer than it will wait to the caller at once', async () => {
    server.script(json(429, { message: 'slow down', code: 'rate_limited' }, { 'retry-after': '3600' }))
    const { delays, hooks } = recordedSleeps()
    const error = await rejection(client({}, hooks).merchantPayments.status(PAYMENT))
    expect(error).toBeInstanceOf(TillRateLimitError)
    expect(error).toMatchObject({ code: 'rate_limited', retryAfterMs: 3_600_000, attempts: 1 })
    expect(delays).toEqual([])
    expect(server.requests).toHaveLength(1)
  })

  it('backs off with jitter below the doubling ceiling', async () => {
    server.script(unavailable)
    const { delays, hooks } = recordedSleeps()
    const till = client({ maxRetries: 4, retryTuning: { baseDelayMs: 100, maxDelayMs: 250 } }, { ...hooks, random: () => 0.999 })
    await expect(till.merchantPayments.status(PAYMENT)).rejects.toThrow(TillApiError)
    expect(delays).toEqual([99, 199, 249, 249])
    expect(server.requests).toHaveLength(5)
  })
})

describe('faults', () => {
  it('gives a connection reset mid-response a TillConnectionError, after retrying', async () => {
    server.script(reset)
    const error = await rejection(client().merchantPayments.status(PAYMENT))
    expect(error).toBeInstanceOf(TillConnectionError)
    expect(error).not.toBeInstanceOf(TillTimeoutError)
    expect(error).toMatchObject({ code: 'connection_error', status: undefined, attempts: 3 })
    expect((error as Error).cause).toBeInstanceOf(Error)
    expect(server.requests).toHaveLength(3)
  })

  it('recovers when a retry after a reset succeeds', async () => {
    server.script(reset, json(200, pending))
    await expect(client().merchantPayments.status(PAYMENT)).resolves.toEqual(pending)
  })

  it('gives a server that never answers a TillTimeoutError at timeoutMs, not before', async () => {
    handTimers()
    server.script(silence)
    const call = watched(rejection(client({ timeoutMs: 150, maxRetries: 0 }).merchantPayments.status(PAYMENT)))
    await server.received(1)
    await vi.advanceTimersByTimeAsync(149)
    expect(call.settled()).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    const error = await call.promise
    expect(error).toBeInstanceOf(TillTimeoutError)
    expect(error).toMatchObject({ code: 'timeout', attempts: 1 })
    expect((error as Error).message).toContain('150 ms')
    expect(server.requests).toHaveLength(1)
  })

  it('times out each attempt, and retries a timed-out GET', async () => {
    handTimers()
    server.script(silence, json(200, pending))
    const { delays, hooks } = recordedSleeps()
    const call = client({ timeoutMs: 100 }, hooks).merchantPayments.status(PAYMENT)
    await server.received(1)
    await vi.advanceTimersByTimeAsync(100)
    const status = await call
    expect(status.lastResponse.attempts).toBe(2)
    expect(delays).toHaveLength(1)
  })

  it('times out a body that stops half way', async () => {
    handTimers()
    server.script(stall)
    const call = rejection(client({ timeoutMs: 150, maxRetries: 0 }).merchantPayments.status(PAYMENT))
    await server.received(1)
    await vi.advanceTimersByTimeAsync(150)
    expect(await call).toBeInstanceOf(TillTimeoutError)
  })

  it('takes timeoutMs per request', async () => {
    handTimers()
    server.script(silence)
    const call = watched(rejection(client().merchantPayments.status(PAYMENT, { timeoutMs: 80, maxRetries: 0 })))
    await server.received(1)
    await vi.advanceTimersByTimeAsync(79)
    expect(call.settled()).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    const error = await call.promise
    expect(error).toBeInstanceOf(TillTimeoutError)
    expect((error as Error).message).toContain('80 ms')
  })

  it('retries a refused connection, then gives a TillConnectionError', async () => {
    const closed = await startFaultServer()
    const url = closed.url
    await closed.close()
    const error = await rejection(client({ baseUrl: url }).payments.status(PAYMENT))
    expect(error).toBeInstanceOf(TillConnectionError)
    expect(error).toMatchObject({ code: 'connection_error', attempts: 3 })
    expect((error as Error).message).toContain('ECONNREFUSED')
  })

  it('rejects with the reason as soon as the caller aborts, and sends nothing more', async () => {
    // No attempt timer can fire: only the abort can end this call.
    handTimers()
    server.script(silence)
    const controller = new AbortController()
    const reason = new Error('shopper left')
    const { delays, hooks } = recordedSleeps()
    const call = rejection(client({}, hooks).merchantPayments.status(PAYMENT, { signal: controller.signal }))
    await server.received(1)
    controller.abort(reason)
    expect(await call).toBe(reason)
    expect(delays).toEqual([])
    expect(server.requests).toHaveLength(1)
  })

  it('stops waiting between attempts when the caller aborts', async () => {
    server.script(unavailable)
    const controller = new AbortController()
    let waiting: (ms: number) => void = () => {}
    const asleep = new Promise<number>((resolve) => (waiting = resolve))
    const hooks: ClientHooks = {
      random: () => 0.5,
      sleep: (ms, signal) => {
        waiting(ms)
        return sleep(ms, signal)
      },
    }
    const till = client({ retryTuning: { baseDelayMs: 60_000, maxDelayMs: 60_000 } }, hooks)
    const call = rejection(till.merchantPayments.status(PAYMENT, { signal: controller.signal }))
    expect(await asleep).toBe(30_000)
    controller.abort()
    expect(await call).toMatchObject({ name: 'AbortError' })
    expect(server.requests).toHaveLength(1)
  })

  it('sends nothing on a signal already aborted', async () => {
    server.script(json(200, pending))
    await expect(client().merchantPayments.status(PAYMENT, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
    expect(server.requests).toHaveLength(0)
  })

  it.each([
    ['an unknown status', { status: 'weird', isFinal: false }, 'status'],
    ['isFinal disagreeing with status', { status: 'succeeded', isFinal: false }, 'isFinal'],
    ['a missing field', { status: 'pending' }, 'isFinal'],
  ])('refuses a success body with %s, naming the field', async (_case, answer, field) => {
    server.script(json(200, answer))
    const error = await rejection(client().merchantPayments.status(PAYMENT))
    expect(error).toBeInstanceOf(TillResponseValidationError)
    expect(error).toMatchObject({ code: 'invalid_response', status: 200 })
    expect((error as TillResponseValidationError).issues.map((issue) => issue.field)).toContain(field)
    expect((error as Error).message).toContain(field)
    expect(server.requests).toHaveLength(1)
  })

  it('refuses a success body that is not JSON', async () => {
    server.script(raw(201, 'text/html', '<html>welcome</html>'))
    const error = await rejection(client().merchantPayments.create(body))
    expect(error).toBeInstanceOf(TillResponseValidationError)
    expect(error).toMatchObject({ issues: [{ field: 'response', message: 'is not JSON' }] })
  })

  it('gives an HTML 502 from a proxy a TillApiError, after retrying it', async () => {
    server.script(raw(502, 'text/html', '<html><body><h1>502 Bad Gateway</h1>nginx</body></html>'))
    const error = await rejection(client().merchantPayments.status(PAYMENT))
    expect(error).toBeInstanceOf(TillApiError)
    expect(error).toMatchObject({ code: 'http_error', status: 502, attempts: 3 })
    expect((error as Error).message).toContain('502 Bad Gateway')
    expect(server.requests).toHaveLength(3)
  })

  it('keeps the API key out of every error', async () => {
    server.script(json(401, { message: 'The API key is not valid.', code: 'invalid_api_key' }))
    const error = await rejection(client().payments.status(PAYMENT))
    expect(error).toBeInstanceOf(TillAuthenticationError)
    expect(inspect(error, { showHidden: true, depth: 10 })).not.toContain(KEY)
    expect(JSON.stringify(error)).not.toContain(KEY)
    server.script(reset)
    const connection = await rejection(client().payments.status(PAYMENT))
    expect(inspect(connection, { showHidden: true, depth: 10 })).not.toContain(KEY)
  })
})

describe('close', () => {
  it('closes its own agent; later calls fail at once without sending', async () => {
    server.script(json(200, pending))
    const till = client()
    await till.merchantPayments.status(PAYMENT)
    await till.close()
    const error = await rejection(till.merchantPayments.status(PAYMENT))
    expect(error).toBeInstanceOf(TillConnectionError)
    expect(error).toMatchObject({ code: 'client_closed' })
    expect(server.requests).toHaveLength(1)
  })

  it('sends through a dispatcher it is given, and leaves it open', async () => {
    server.script(json(200, pending))
    let dispatched = 0
    const agent = new Agent()
    const counting: Dispatcher = agent.compose((dispatch) => (options, handler) => {
      dispatched++
      return dispatch(options, handler)
    })
    try {
      const till = client({ dispatcher: counting })
      await till.merchantPayments.status(PAYMENT)
      await till.close()
      expect(dispatched).toBe(1)
      const after = await agent.request({ origin: server.url, path: '/still-open', method: 'GET' })
      await after.body.text()
      expect(after.statusCode).toBe(200)
    } finally {
      await agent.close()
    }
  })
})
