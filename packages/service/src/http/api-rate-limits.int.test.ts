import { ErrorBody } from '@till/contract'
import type { FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { createAccount, testClock, useTestApp } from '../../test/fixtures.ts'

const clock = testClock()
const ctx = useTestApp({
  clock,
  config: {
    apiRateLimits: { perKey: { limit: 3, windowMs: 60_000 }, authFailuresPerAddress: { limit: 2, windowMs: 60_000 } },
  },
})

const PAYMENT = '/v1/payments/pay_00000000000000000000000000000000/status'
const FORGED = 'till_sk_live_000000000000_0000000000000000000000000000000000000000000'

const read = (app: FastifyInstance, address: string, apiKey?: string) =>
  app.inject({ url: PAYMENT, remoteAddress: address, headers: apiKey === undefined ? {} : { 'api-key': apiKey } })

function expectRateLimited(response: Awaited<ReturnType<typeof read>>) {
  expect(response.statusCode).toBe(429)
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0)
  expect(response.headers['request-id']).toMatch(/^req_/)
  expect(ErrorBody.parse(response.json())).toMatchObject({ code: 'rate_limited' })
}

describe('/v1 rate limit per API key', () => {
  it('refuses a key past its budget with 429 and Retry-After, and leaves other keys alone', async () => {
    const account = await createAccount(ctx.tdb.db)
    const other = await createAccount(ctx.tdb.db)
    // Each from its own address: the key is what is counted.
    for (let i = 0; i < 3; i++) expect((await read(ctx.app, `10.1.0.${i}`, account.apiKey)).statusCode).toBe(404)
    const refused = await read(ctx.app, '10.1.0.9', account.apiKey)
    expectRateLimited(refused)
    expect(refused.json()).toMatchObject({ message: expect.stringMatching(/with this API key/) })
    expect((await read(ctx.app, '10.1.0.9', other.apiKey)).statusCode).toBe(404)
  })

  it('gives the key a new budget once the window has passed', async () => {
    const account = await createAccount(ctx.tdb.db)
    for (let i = 0; i < 3; i++) await read(ctx.app, '10.2.0.1', account.apiKey)
    expectRateLimited(await read(ctx.app, '10.2.0.1', account.apiKey))
    clock.advance(60_000)
    expect((await read(ctx.app, '10.2.0.1', account.apiKey)).statusCode).toBe(404)
  })
})

describe('/v1 rate limit on failed authentications per address', () => {
  it('answers 401 up to the budget, then 429 for made-up keys before they are looked up', async () => {
    expect((await read(ctx.app, '10.3.0.1')).json()).toMatchObject({ code: 'missing_api_key' })
    expect((await read(ctx.app, '10.3.0.1', FORGED)).json()).toMatchObject({ code: 'invalid_api_key' })
    for (const key of [undefined, FORGED, 'garbage']) expectRateLimited(await read(ctx.app, '10.3.0.1', key))
    // Another address has its own budget.
    expect((await read(ctx.app, '10.3.0.2', FORGED)).statusCode).toBe(401)
  })

  it('refuses a flood of wrong keys from one address, as the probe sent', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => read(ctx.app, '10.4.0.1', FORGED)))
    const statuses = answers.map((response) => response.statusCode)
    expect(statuses.filter((status) => status === 401)).toHaveLength(2)
    expect(statuses.filter((status) => status === 429)).toHaveLength(48)
  })

  it('keeps serving keys this instance already knows from a refused address (a NAT, a proxy)', async () => {
    const known = await createAccount(ctx.tdb.db)
    const unseen = await createAccount(ctx.tdb.db)
    expect((await read(ctx.app, '10.5.0.1', known.apiKey)).statusCode).toBe(404)
    for (let i = 0; i < 2; i++) await read(ctx.app, '10.5.0.1', FORGED)
    expectRateLimited(await read(ctx.app, '10.5.0.1', FORGED))

    expect((await read(ctx.app, '10.5.0.1', known.apiKey)).statusCode).toBe(404)
    // The known key's id with a wrong secret is a failure like any other, over the budget.
    expectRateLimited(await read(ctx.app, '10.5.0.1', `${known.apiKey.slice(0, -4)}AAAA`))
    // A key this instance has not seen waits out the window, like the made-up ones.
    expectRateLimited(await read(ctx.app, '10.5.0.1', unseen.apiKey))
    clock.advance(60_000)
    expect((await read(ctx.app, '10.5.0.1', unseen.apiKey)).statusCode).toBe(404)
  })

  it('refuses before reading the body', async () => {
    for (let i = 0; i < 2; i++) await read(ctx.app, '10.6.0.1', FORGED)
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/v1/merchant/payment',
      remoteAddress: '10.6.0.1',
      headers: { 'api-key': FORGED, 'content-type': 'application/json' },
      payload: '{not json',
    })
    expectRateLimited(response)
  })
})
