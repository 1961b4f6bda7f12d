// What a client that does not play by HTTP's rules gets: bodies nobody wants, slow or stalled requests,
// malformed ones, and what the router refuses. Over raw sockets, since no HTTP client sends these.
import { once } from 'node:events'
import { ErrorBody } from '@till/contract'
import { beforeAll, describe, expect, it } from 'vitest'
import { createAccount, createBody, useTestApp } from '../../test/fixtures.ts'
import { createCheckoutPayment } from '../../test/checkout-fixtures.ts'
import { exchange, parseResponses, portOf, rawConnection, type RawResponse } from './raw-http.test-helper.ts'

const ctx = useTestApp()
let port: number
beforeAll(async () => {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' })
  port = portOf(ctx.app)
})

function expectSpecError(response: RawResponse | undefined, status: number, code: string) {
  expect(response?.status).toBe(status)
  expect(response?.headers['content-type']).toMatch(/^application\/json/)
  expect(response?.headers['request-id']).toMatch(/^req_\w+$/)
  expect(ErrorBody.parse(JSON.parse(response?.body ?? ''))).toMatchObject({ code })
}

const PAYMENT_ID = 'pay_00000000000000000000000000000000'

describe('an early answer while the body is still coming', () => {
  it('/v1 answers 401 without waiting for the body, then closes the connection', async () => {
    const connection = await rawConnection(port)
    connection.write(
      'POST /v1/merchant/payment HTTP/1.1\r\nHost: till.test\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{"amount":',
    )
    const [response] = parseResponses(await connection.closed)
    expectSpecError(response, 401, 'missing_api_key')
    expect(response?.headers.connection).toBe('close')
  })

  it('the gateway API answers a wrong checkout token with 403 without waiting for the body, then closes', async () => {
    const connection = await rawConnection(port)
    connection.write(
      `POST /checkout/api/payments/${PAYMENT_ID}/confirm HTTP/1.1\r\nHost: till.test\r\nContent-Type: application/json\r\n` +
        'Checkout-Token: not-the-token\r\nContent-Length: 4000\r\n\r\n{"walletId":',
    )
    const [response] = parseResponses(await connection.closed)
    expectSpecError(response, 403, 'checkout_token_invalid')
    expect(response?.headers.connection).toBe('close')
  })

  it('keeps the connection of a request without a body open after an error', async () => {
    const connection = await rawConnection(port)
    const request = `GET /v1/payments/${PAYMENT_ID}/status HTTP/1.1\r\nHost: till.test\r\n\r\n`
    connection.write(request + request)
    const responses = await connection.responses(2)
    expect(responses.map((response) => response.status)).toEqual([401, 401])
    expect(responses[0]?.headers.connection).not.toBe('close')
    expect(connection.isOpen()).toBe(true)
    connection.end()
  })
})

describe('time limits on a request', () => {
  const slow = useTestApp({ config: { sandbox: true, httpTimeouts: { headersMs: 150, requestMs: 300 } } })
  let slowPort: number
  beforeAll(async () => {
    await slow.app.listen({ port: 0, host: '127.0.0.1' })
    slowPort = portOf(slow.app)
  })

  it('answers a body trickling in with 408 once the request time is up, and closes the connection', async () => {
    const account = await createAccount(slow.tdb.db)
    const connection = await rawConnection(slowPort)
    connection.write(
      'POST /v1/merchant/payment HTTP/1.1\r\nHost: till.test\r\nContent-Type: application/json\r\n' +
        `Api-Key: ${account.apiKey}\r\nMerchant-Id: ${account.merchantId}\r\nContent-Length: 4000\r\n\r\n{`,
    )
    // A byte now and then: activity on the connection does not restart the clock.
    const trickle = setInterval(() => connection.write(' '), 20)
    const raw = await connection.closed.finally(() => clearInterval(trickle))
    const [response] = parseResponses(raw)
    expectSpecError(response, 408, 'request_timeout')
    expect(response?.headers.connection).toBe('close')
  })

  it('answers headers that never end with 408, and closes the connection', async () => {
    const connection = await rawConnection(slowPort)
    connection.write('GET /healthz HTTP/1.1\r\nHost: till.test\r\n')
    const [response] = parseResponses(await connection.closed)
    expectSpecError(response, 408, 'request_timeout')
  })

  it('closes a connection that never sends a request', async () => {
    const connection = await rawConnection(slowPort)
    const raw = await connection.closed
    // Nothing was asked, so there may be nothing to answer; if there is an answer, it is the spec's.
    if (raw !== '') expectSpecError(parseResponses(raw)[0], 408, 'request_timeout')
  })

  it('does not count the time a long-poll takes to answer', async () => {
    const account = await createAccount(slow.tdb.db, { sandbox: true })
    const payment = await createCheckoutPayment(slow.app, account)
    const response = await exchange(
      slowPort,
      `GET /checkout/api/payments/${payment.paymentId}/status?after=pending&waitMs=900 HTTP/1.1\r\nHost: till.test\r\n` +
        `Checkout-Token: ${payment.token}\r\nConnection: close\r\n\r\n`,
    )
    expect(response.status).toBe(200)
    expect(JSON.parse(response.body)).toMatchObject({ status: 'pending' })
  })
})

describe('requests refused before any route', () => {
  it('answers a malformed percent-encoding in the path with 400 bad_request', async () => {
    const response = await exchange(port, 'GET /v1/payments/%ff/status HTTP/1.1\r\nHost: till.test\r\nConnection: close\r\n\r\n')
    expectSpecError(response, 400, 'bad_request')
  })

  it('routes path identifiers up to the contract’s 128 characters, and answers longer ones with 414', async () => {
    const path = (length: number) => `/v1/payments/pay_${'a'.repeat(length - 4)}/status`
    const routed = await exchange(port, `GET ${path(128)} HTTP/1.1\r\nHost: till.test\r\nConnection: close\r\n\r\n`)
    expectSpecError(routed, 401, 'missing_api_key')
    const tooLong = await exchange(port, `GET ${path(129)} HTTP/1.1\r\nHost: till.test\r\nConnection: close\r\n\r\n`)
    expectSpecError(tooLong, 414, 'uri_too_long')
  })

  it('answers headers over 16 KiB with 431 header_too_large, and closes the connection', async () => {
    const response = await exchange(port, `GET /healthz HTTP/1.1\r\nHost: till.test\r\nX-Padding: ${'x'.repeat(17 * 1024)}\r\n\r\n`)
    expectSpecError(response, 431, 'header_too_large')
    expect(response.headers.connection).toBe('close')
  })

  it.each([
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
    ['an unknown HTTP version', 'GET /healthz HTTP/7.0\r\nHost: till.test\r\n\r\n'],
    ['a header line without a colon', 'GET /healthz HTTP/1.1\r\nHost: till.test\r\nnot a header\r\n\r\n'],
    [
      'both Content-Length and chunked encoding',
      'POST /v1/merchant/payment HTTP/1.1\r\nHost: till.test\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
  ])('answers %s with 400 bad_request, and closes the connection', async (_case, request) => {
    const response = await exchange(port, request)
    expectSpecError(response, 400, 'bad_request')
    expect(response.headers.connection).toBe('close')
  })

  it('gives a 404 the spec’s body and a Request-Id', async () => {
    const response = await exchange(port, 'GET /nowhere HTTP/1.1\r\nHost: till.test\r\nConnection: close\r\n\r\n')
    expectSpecError(response, 404, 'not_found')
  })

  it('numbers the answers to malformed requests like any other', async () => {
    const first = await exchange(port, 'HELLO\r\n\r\n')
    const second = await exchange(port, 'HELLO\r\n\r\n')
    expect(first.headers['request-id']).not.toBe(second.headers['request-id'])
  })
})

describe('a request that arrives while the service closes', () => {
  const closing = useTestApp()

  it('is answered 503 service_unavailable in the spec’s shape, and its connection closed', async () => {
    await closing.app.listen({ port: 0, host: '127.0.0.1' })
    const accepted = once(closing.app.server, 'connection')
    const connection = await rawConnection(portOf(closing.app))
    await accepted
    const closed = closing.app.close()
    connection.write('GET /healthz HTTP/1.1\r\nHost: till.test\r\n\r\n')
    const [response] = parseResponses(await connection.closed)
    await closed
    expectSpecError(response, 503, 'service_unavailable')
    expect(response?.headers.connection).toBe('close')
    expect(response?.headers['retry-after']).toBe('1')
  })
})

describe('a client that half-closes its connection after the request', () => {
  it('gets its answer, and the payment is made once, as without the half-close', async () => {
    const account = await createAccount(ctx.tdb.db)
    const body = JSON.stringify(createBody({ referenceId: 'half-closed-1' }))
    const connection = await rawConnection(port)
    connection.write(
      `POST /v1/merchant/payment HTTP/1.1\r\nHost: till.test\r\nApi-Key: ${account.apiKey}\r\nMerchant-Id: ${account.merchantId}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    )
    // FIN: the client sends nothing more, and still reads the answer (a create waits on the database).
    connection.socket.end()
    const [response, ...more] = parseResponses(await connection.closed)
    expect(more).toEqual([])
    expect(response?.status).toBe(201)
    const { paymentId } = JSON.parse(response?.body ?? '{}') as { paymentId: string }
    const rows = await ctx.tdb.db.query<{ id: string }>('SELECT id FROM payments WHERE reference_id = $1', ['half-closed-1'])
    expect(rows).toEqual([{ id: paymentId }])
  })
})
