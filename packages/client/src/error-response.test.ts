import { describe, expect, it } from 'vitest'
import { errorFromResponse, type ErrorResponse } from './error-response.ts'
import {
  TillApiError,
  TillAuthenticationError,
  TillConflictError,
  TillError,
  TillInvalidRequestError,
  TillNotFoundError,
  TillPermissionError,
  TillRateLimitError,
} from './errors.ts'

const response = (status: number, body: unknown, extra: Partial<ErrorResponse> = {}): ErrorResponse => ({
  status,
  headers: { 'pay-version': '2026-02-18', 'request-id': 'req_1' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
  method: 'GET',
  path: '/v1/payments/pay_1/status',
  attempts: 1,
  retryAfterMs: undefined,
  ...extra,
})

describe('errorFromResponse', () => {
  it.each([
    [400, TillInvalidRequestError],
    [401, TillAuthenticationError],
    [403, TillPermissionError],
    [404, TillNotFoundError],
    [405, TillInvalidRequestError],
    [409, TillConflictError],
    [413, TillInvalidRequestError],
    [429, TillRateLimitError],
    [500, TillApiError],
    [502, TillApiError],
    [503, TillApiError],
    [302, TillApiError],
  ])('gives %i a %o', (status, kind) => {
    const error = errorFromResponse(response(status, { message: 'm', code: 'c' }))
    expect(error).toBeInstanceOf(kind)
    expect(error).toBeInstanceOf(TillError)
    expect(error.name).toBe(kind.name)
    expect(error.status).toBe(status)
  })

  it('carries every field of the spec error body, and the request', () => {
    const error = errorFromResponse(
      response(400, {
        message: 'Validation failed (amount.value: must not carry a sign).',
        code: 'params_validation',
        details: { hint: 1 },
        issues: [{ field: 'amount.value', message: 'must not carry a sign' }],
      }),
    )
    expect(error).toMatchObject({
      message: 'Validation failed (amount.value: must not carry a sign).',
      code: 'params_validation',
      status: 400,
      details: { hint: 1 },
      issues: [{ field: 'amount.value', message: 'must not carry a sign' }],
      payVersion: '2026-02-18',
      requestId: 'req_1',
      method: 'GET',
      path: '/v1/payments/pay_1/status',
      attempts: 1,
    })
  })

  it('passes a code it has never heard of through', () => {
    const error = errorFromResponse(response(400, { message: 'new rule', code: 'brand_new_code_2030' }))
    expect(error).toBeInstanceOf(TillInvalidRequestError)
    expect(error.code).toBe('brand_new_code_2030')
    expect(error.issues).toEqual([])
  })

  it('gives an HTML page from a proxy the generic code and a short quote', () => {
    const html = `<html><head><title>502 Bad Gateway</title></head><body>${'x'.repeat(5_000)}</body></html>`
    const error = errorFromResponse(response(502, html, { headers: {} }))
    expect(error).toBeInstanceOf(TillApiError)
    expect(error.code).toBe('http_error')
    expect(error.message).toContain('HTTP 502 from GET /v1/payments/pay_1/status')
    expect(error.message).toContain('502 Bad Gateway')
    expect(error.message.length).toBeLessThan(400)
    expect(error.payVersion).toBeUndefined()
  })

  it.each([
    ['an empty body', ''],
    ['JSON of another shape', { error: 'nope' }],
    ['a code that is not a string', { message: 'm', code: 7 }],
    ['JSON that is not an object', '"oops"'],
  ])('does the same with %s', (_case, body) => {
    const error = errorFromResponse(response(500, body))
    expect(error).toBeInstanceOf(TillApiError)
    expect(error.code).toBe('http_error')
  })

  it('gives a 429 its Retry-After', () => {
    const error = errorFromResponse(response(429, { message: 'slow down', code: 'rate_limited' }, { retryAfterMs: 3_000 }))
    expect(error).toBeInstanceOf(TillRateLimitError)
    expect((error as TillRateLimitError).retryAfterMs).toBe(3_000)
  })
})
