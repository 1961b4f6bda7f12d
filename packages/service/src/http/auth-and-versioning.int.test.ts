import { ErrorBody } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccount, createBody, type Account, useTestApp } from '../../test/fixtures.ts'
import { accountStore } from '../accounts/store.ts'

let account: Account

const ctx = useTestApp()
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
})

const create = (headers: Record<string, string>) =>
  ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers, payload: createBody() })
const errorOf = (response: { json(): unknown }) => ErrorBody.parse(response.json())

describe('Api-Key (section 5)', () => {
  it('answers a request without a key with 401 missing_api_key, before reading the body', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/v1/merchant/payment',
      headers: { 'merchant-id': account.merchantId, 'content-type': 'application/json' },
      payload: '{not json',
    })
    expect(response.statusCode).toBe(401)
    expect(errorOf(response).code).toBe('missing_api_key')
  })

  it.each([
    ['garbage', 'hello'],
    ['an empty-looking key', '   '],
  ])('treats %s as missing or invalid', async (_case, key) => {
    const response = await create({ ...account.headers, 'api-key': key })
    expect(response.statusCode).toBe(401)
    expect(['missing_api_key', 'invalid_api_key']).toContain(errorOf(response).code)
  })

  it('refuses a key whose secret part is wrong with 401 invalid_api_key', async () => {
    const forged = account.apiKey.slice(0, -4) + (account.apiKey.endsWith('AAAA') ? 'BBBB' : 'AAAA')
    const response = await create({ ...account.headers, 'api-key': forged })
    expect(response.statusCode).toBe(401)
    expect(errorOf(response).code).toBe('invalid_api_key')
  })

  it('refuses a revoked key', async () => {
    expect((await create(account.headers)).statusCode).toBe(201)
    await accountStore(ctx.tdb.db).revokeApiKeys({ partnerId: account.partnerId, now: new Date() })
    const response = await create(account.headers)
    expect(response.statusCode).toBe(401)
    expect(errorOf(response).code).toBe('invalid_api_key')
  })

  it('never stores the key itself', async () => {
    const rows = await ctx.tdb.db.query<{ row: string }>('SELECT row_to_json(api_keys)::text AS row FROM api_keys')
    // The key's secret: its last 43 characters (`till_sk_<mode>_<id>_<secret>`), which may hold an underscore.
    const secret = account.apiKey.slice(-43)
    expect(account.apiKey).toMatch(/^till_sk_(live|test)_[0-9a-z]{12}_/)
    for (const { row } of rows) expect(row).not.toContain(secret)
  })

  it('protects the partner status endpoint too', async () => {
    const response = await ctx.app.inject({ url: '/v1/payments/pay_00000000000000000000000000000000/status' })
    expect(response.statusCode).toBe(401)
    expect(errorOf(response).code).toBe('missing_api_key')
  })
})

describe('Merchant-Id', () => {
  it('is required on the merchant API', async () => {
    const response = await create({ 'api-key': account.apiKey })
    expect(response.statusCode).toBe(400)
    expect(errorOf(response).issues).toEqual([{ field: 'Merchant-Id', message: 'Required header' }])
  })

  it('must name a merchant: 404 merchant_not_found on create', async () => {
    const response = await create({ ...account.headers, 'merchant-id': 'mer_nope' })
    expect(response.statusCode).toBe(404)
    expect(errorOf(response).code).toBe('merchant_not_found')
  })

  it('must name a merchant of the key’s own partner', async () => {
    const other = await createAccount(ctx.tdb.db)
    const response = await create({ ...account.headers, 'merchant-id': other.merchantId })
    expect(response.statusCode).toBe(404)
    expect(errorOf(response).code).toBe('merchant_not_found')
  })
})

describe('Pay-Version (section 9)', () => {
  it('uses the partner’s pinned version when the header is absent', async () => {
    const preview = await createAccount(ctx.tdb.db, { version: '2026-02-19.preview' })
    const response = await create(preview.headers)
    expect(response.statusCode).toBe(201)
    expect(response.headers['pay-version']).toBe('2026-02-19.preview')
  })

  it('lets a request ask for a newer version than the pin', async () => {
    const response = await create({ ...account.headers, 'pay-version': '2026-02-19.preview' })
    expect(response.statusCode).toBe(201)
    expect(response.headers['pay-version']).toBe('2026-02-19.preview')
  })

  it('refuses a version older than the pin with api_version_downgrade', async () => {
    const preview = await createAccount(ctx.tdb.db, { version: '2026-02-19.preview' })
    const response = await create({ ...preview.headers, 'pay-version': '2026-02-18' })
    expect(response.statusCode).toBe(400)
    expect(errorOf(response).code).toBe('api_version_downgrade')
  })

  it.each(['latest', '2026-2-18', '2026-02-30', '20260218', ''])('calls %j malformed: invalid_api_version', async (version) => {
    const response = await create({ ...account.headers, 'pay-version': version })
    expect(response.statusCode).toBe(400)
    expect(errorOf(response).code).toBe('invalid_api_version')
  })

  it('calls a well-formed but unknown version unknown_api_version', async () => {
    const response = await create({ ...account.headers, 'pay-version': '2025-01-01' })
    expect(response.statusCode).toBe(400)
    expect(errorOf(response).code).toBe('unknown_api_version')
  })

  it('answers the resolved version on every /v1 response, errors included', async () => {
    const response = await ctx.app.inject({ url: '/v1/merchant/payment/pay_x/status', headers: account.headers })
    expect(response.statusCode).toBe(404)
    expect(response.headers['pay-version']).toBe('2026-02-18')
  })
})

describe('unknown routes', () => {
  it('answer with the spec’s error body', async () => {
    const response = await ctx.app.inject({ url: '/nowhere' })
    expect(response.statusCode).toBe(404)
    expect(errorOf(response).code).toBe('not_found')
  })

  it('has no sandbox route outside sandbox mode', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/v1/sandbox/payments/pay_00000000000000000000000000000000/simulate',
      headers: account.headers,
      payload: { outcome: 'succeeded' },
    })
    expect(response.statusCode).toBe(404)
    expect(errorOf(response).code).toBe('not_found')
  })
})
