import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ERROR_CODES, ErrorBody, ErrorCodeSchema, toErrorIssues } from './errors.ts'
import { CreatePaymentRequest } from './payment.ts'
import { PaymentListQuery } from './listing-query.ts'

function issuesOf(schema: z.ZodType, value: unknown, root?: string) {
  const result = schema.safeParse(value)
  if (result.success) throw new Error('expected a failure')
  return toErrorIssues(result.error, root)
}

describe('ERROR_CODES', () => {
  it('maps exactly the agreed codes to their statuses', () => {
    const statuses = Object.fromEntries(Object.entries(ERROR_CODES).map(([code, info]) => [code, info.status]))
    expect(statuses).toEqual({
      invalid_params: 400,
      params_validation: 400,
      invalid_api_version: 400,
      unknown_api_version: 400,
      api_version_downgrade: 400,
      missing_idempotency_key: 400,
      invalid_idempotency_key: 400,
      bad_request: 400,
      missing_api_key: 401,
      invalid_api_key: 401,
      merchant_not_found: 404,
      checkout_token_invalid: 403,
      payment_not_found: 404,
      refund_not_found: 404,
      unapplied_transfer_not_found: 404,
      webhook_endpoint_not_found: 404,
      not_found: 404,
      method_not_allowed: 405,
      request_timeout: 408,
      reference_already_paid: 409,
      reference_in_use: 409,
      payment_not_refundable: 409,
      refund_exceeds_payment: 409,
      refund_not_cancellable: 409,
      refund_not_payable: 409,
      refund_link_used: 410,
      refund_link_expired: 410,
      refund_link_invalid: 403,
      sign_in_failed: 401,
      not_signed_in: 401,
      csrf_refused: 403,
      role_forbidden: 403,
      invitation_not_found: 404,
      invitation_used: 410,
      last_owner: 409,
      last_sign_in_method: 409,
      invitation_expired: 410,
      payment_not_cancellable: 409,
      invalid_transition: 409,
      idempotency_conflict: 409,
      transaction_already_used: 409,
      transaction_not_found: 409,
      payload_too_large: 413,
      uri_too_long: 414,
      unsupported_media_type: 415,
      rate_limited: 429,
      header_too_large: 431,
      internal_error: 500,
      bad_gateway: 502,
      service_unavailable: 503,
    })
  })

  it('describes every code', () => {
    for (const info of Object.values(ERROR_CODES)) expect(info.description.length).toBeGreaterThan(5)
    expect(ERROR_CODES.reference_already_paid.description).toMatch(/already succeeded/)
    expect(ERROR_CODES.reference_in_use.description).toMatch(/different amount/)
  })

  it('has a schema with the same codes', () => {
    expect([...ErrorCodeSchema.options].sort()).toEqual(Object.keys(ERROR_CODES).sort())
    expect(ErrorCodeSchema.safeParse('teapot').success).toBe(false)
  })
})

describe('ErrorBody', () => {
  it('requires message and code', () => {
    expect(ErrorBody.safeParse({ message: 'x', code: 'invalid_params' }).success).toBe(true)
    expect(ErrorBody.safeParse({ message: 'x' }).success).toBe(false)
    expect(ErrorBody.safeParse({ code: 'x' }).success).toBe(false)
  })

  it('takes optional details and issues', () => {
    const body = { message: 'x', code: 'params_validation', details: { limit: 200 }, issues: [{ field: 'limit', message: 'too big' }] }
    expect(ErrorBody.parse(body)).toEqual(body)
    expect(ErrorBody.safeParse({ ...body, issues: [{ field: 'limit' }] }).success).toBe(false)
    expect(ErrorBody.safeParse({ ...body, details: 'nope' }).success).toBe(false)
  })

  it('accepts codes it does not know, for forward compatibility', () => {
    expect(ErrorBody.safeParse({ message: 'x', code: 'some_future_code' }).success).toBe(true)
  })
})

describe('toErrorIssues', () => {
  it('joins object paths with dots', () => {
    expect(issuesOf(CreatePaymentRequest, { amount: { unit: 'iso4217/USD', value: '1.00' }, referenceId: 'r' })).toEqual([
      { field: 'amount.value', message: 'must be an integer count of minor units, without a decimal point' },
    ])
  })

  it('puts array indices in brackets', () => {
    expect(issuesOf(PaymentListQuery, { status: ['succeeded', 'paid'] }, 'query')).toEqual([
      { field: 'status[1]', message: expect.stringMatching(/^must be one of "requires_action"/) },
    ])
    const nested = z.object({ items: z.array(z.object({ tags: z.array(z.string()) })) })
    expect(issuesOf(nested, { items: [{ tags: ['a'] }, { tags: ['b', 3] }] })).toEqual([
      { field: 'items[1].tags[1]', message: 'must be a string, not a number' },
    ])
    expect(issuesOf(z.array(z.string()), [1])).toEqual([{ field: '[0]', message: 'must be a string, not a number' }])
  })

  it('names root-level issues after the root, body by default', () => {
    expect(issuesOf(CreatePaymentRequest, [])).toEqual([{ field: 'body', message: 'must be an object, not an array' }])
    expect(issuesOf(CreatePaymentRequest, 'x', 'payload')).toEqual([{ field: 'payload', message: 'must be an object, not a string' }])
  })

  it('says a missing field is required', () => {
    expect(issuesOf(CreatePaymentRequest, { referenceId: 'r' })).toEqual([{ field: 'amount', message: 'is required' }])
  })

  it('reports each unknown key as its own field', () => {
    expect(issuesOf(PaymentListQuery, { limits: '5', sortdir: 'asc' }, 'query')).toEqual([
      { field: 'limits', message: 'is not recognised; check the spelling' },
      { field: 'sortdir', message: 'is not recognised; check the spelling' },
    ])
    const nested = z.object({ inner: z.strictObject({ a: z.string() }) })
    expect(issuesOf(nested, { inner: { a: 'x', b: 1 } })).toEqual([{ field: 'inner.b', message: 'is not recognised; check the spelling' }])
  })

  it('keeps custom messages and rewrites zod defaults into readable ones', () => {
    const schema = z.object({
      s: z.string().min(3),
      t: z.string().max(2),
      n: z.number().min(1),
      m: z.number().max(10),
      a: z.array(z.string()).min(1),
      e: z.enum(['x', 'y']),
      l: z.literal('only'),
      c: z.string().refine(() => false, { error: 'must be special' }),
      mail: z.email(),
    })
    expect(issuesOf(schema, { s: 'ab', t: 'abc', n: 0, m: 11, a: [], e: 'z', l: 'other', c: '', mail: 'nope' })).toEqual([
      { field: 's', message: 'must be at least 3 characters long' },
      { field: 't', message: 'must be at most 2 characters long' },
      { field: 'n', message: 'must be at least 1' },
      { field: 'm', message: 'must be at most 10' },
      { field: 'a', message: 'must have at least 1 item(s)' },
      { field: 'e', message: 'must be one of "x", "y"' },
      { field: 'l', message: 'must be "only"' },
      { field: 'c', message: 'must be special' },
      { field: 'mail', message: 'must be a valid e-mail address' },
    ])
  })

  it('reports the closest union branch instead of a bare "Invalid input"', () => {
    const schema = z.object({
      shape: z.union([
        z.object({ kind: z.literal('a'), a: z.string() }),
        z.object({ kind: z.literal('b'), b: z.object({ deep: z.number() }) }),
      ]),
    })
    expect(issuesOf(schema, { shape: { kind: 'b', b: { deep: 'x' } } })).toEqual([
      { field: 'shape.b.deep', message: 'must be a number, not a string' },
    ])
  })

  it('returns one entry per problem and never an empty list for a failure', () => {
    const found = issuesOf(CreatePaymentRequest, { amount: { unit: 'iso4217/usd', value: '-1' }, referenceId: ' x' })
    expect(found.map((i) => i.field)).toEqual(['amount.unit', 'amount.value', 'referenceId'])
    for (const issue of found) expect(issue.message).not.toMatch(/^Invalid/)
  })
})
