import { ErrorBody, MerchantResponse } from '@till/contract'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { type Account, createAccount, createBody, testClock, useTestApp } from '../../test/fixtures.ts'
import { startLogoServer } from '../../test/logo-server.ts'

const clock = testClock()
const logos = await startLogoServer()
afterAll(() => logos.close())
const ctx = useTestApp({ clock, outbound: { lookup: logos.lookup, ca: [logos.ca] } })

let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
})

const body = { merchantName: 'Corner Shop', merchantEmail: 'owner@corner.example' }
let keys = 0
const newKey = () => `create-${++keys}-${clock.now().getTime()}`

function create(payload: unknown, headers: Record<string, string | undefined> = {}) {
  const sent = Object.entries({ authorization: `Bearer ${account.apiKey}`, 'idempotency-key': newKey(), ...headers })
  return ctx.app.inject({
    method: 'POST',
    url: '/v1/merchants',
    headers: Object.fromEntries(sent.filter((entry): entry is [string, string] => entry[1] !== undefined)),
    payload: payload as Record<string, unknown>,
  })
}

function update(merchantId: string, payload: unknown, apiKey = account.apiKey) {
  return ctx.app.inject({
    method: 'PATCH',
    url: `/v1/merchants/${merchantId}`,
    headers: { authorization: `Bearer ${apiKey}` },
    payload: payload as Record<string, unknown>,
  })
}

const merchantCount = async () =>
  Number(
    (await ctx.tdb.db.query<{ n: string }>('SELECT count(*)::text AS n FROM merchants WHERE partner_id = $1', [account.partnerId]))[0]?.n,
  )

describe('POST /v1/merchants', () => {
  it('creates a merchant whose id is at once a Merchant-Id of the checkout API', async () => {
    const response = await create(body)
    expect(response.statusCode, response.body).toBe(201)
    const { merchant } = MerchantResponse.parse(response.json())
    expect(merchant).toEqual({
      id: expect.stringMatching(/^mer_[0-9a-z]+$/),
      name: 'Corner Shop',
      email: 'owner@corner.example',
      status: 'active',
      createdAt: clock.now().toISOString(),
      iconUrl: null,
      settlementAddresses: [],
    })
    expect(response.headers['pay-version']).toBeDefined()
    const payment = await ctx.app.inject({
      method: 'POST',
      url: '/v1/merchant/payment',
      headers: { 'api-key': account.apiKey, 'merchant-id': merchant.id },
      payload: createBody(),
    })
    expect(payment.statusCode, payment.body).toBe(201)
  })

  it('takes the key as Authorization: Bearer or Api-Key, and refuses any other scheme', async () => {
    expect((await create(body, { authorization: undefined, 'api-key': account.apiKey })).statusCode).toBe(201)
    const cases: [Record<string, string | undefined>, number, string][] = [
      [{ authorization: undefined }, 401, 'missing_api_key'],
      [{ authorization: `Basic ${Buffer.from(`x:${account.apiKey}`).toString('base64')}` }, 401, 'missing_api_key'],
      [{ authorization: 'Bearer' }, 401, 'missing_api_key'],
      [{ authorization: 'Bearer till_sk_live_nope_nope' }, 401, 'invalid_api_key'],
    ]
    for (const [headers, status, code] of cases) {
      const response = await create(body, headers)
      expect(response.statusCode, JSON.stringify(headers)).toBe(status)
      expect(ErrorBody.parse(response.json()).code).toBe(code)
    }
    expect(await merchantCount()).toBe(2)
  })

  it('refuses a bad body with an issue per field, and creates nothing', async () => {
    const response = await create({ merchantName: 'n'.repeat(257), merchantEmail: 'nope', iconUrl: 'http://logo.example/x.png' })
    expect(response.statusCode).toBe(400)
    const error = ErrorBody.parse(response.json())
    expect(error.code).toBe('params_validation')
    expect(error.issues?.map((issue) => issue.field).sort()).toEqual(['iconUrl', 'merchantEmail', 'merchantName'])
    expect(await merchantCount()).toBe(1)
  })
})

describe('Idempotency-Key on POST /v1/merchants', () => {
  it('is required (missing_idempotency_key), and 1 to 255 characters (invalid_idempotency_key)', async () => {
    for (const [key, code, message] of [
      [undefined, 'missing_idempotency_key', 'Required header'],
      ['', 'invalid_idempotency_key', 'must not be empty'],
      ['k'.repeat(256), 'invalid_idempotency_key', 'must be at most 255 characters long'],
    ] as const) {
      const response = await create(body, { 'idempotency-key': key })
      expect(response.statusCode).toBe(400)
      const error = ErrorBody.parse(response.json())
      expect(error.code).toBe(code)
      expect(error.issues).toEqual([{ field: 'Idempotency-Key', message }])
    }
    expect(await merchantCount()).toBe(1)
    expect((await create(body, { 'idempotency-key': 'k'.repeat(255) })).statusCode).toBe(201)
  })

  it('replays the first answer to the same body, and refuses another body', async () => {
    const key = newKey()
    const first = await create(body, { 'idempotency-key': key })
    const again = await create({ ...body, merchantName: '  Corner Shop ' }, { 'idempotency-key': key })
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    expect(again.json()).toEqual(first.json())
    const other = await create({ ...body, merchantName: 'Another Shop' }, { 'idempotency-key': key })
    expect(other.statusCode).toBe(409)
    expect(ErrorBody.parse(other.json()).code).toBe('idempotency_conflict')
    expect(await merchantCount()).toBe(2)
  })

  it('creates exactly one merchant for concurrent requests with one key', async () => {
    const key = newKey()
    const responses = await Promise.all(Array.from({ length: 8 }, () => create(body, { 'idempotency-key': key })))
    expect(responses.map((r) => r.statusCode)).toEqual(Array(8).fill(201))
    expect(new Set(responses.map((r) => r.json<MerchantResponse>().merchant.id)).size).toBe(1)
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(7)
    expect(await merchantCount()).toBe(2)
  })

  it('keeps a key for 24 hours, per partner', async () => {
    const key = newKey()
    const first = await create(body, { 'idempotency-key': key })
    const other = await createAccount(ctx.tdb.db)
    const otherPartner = await create(body, { 'idempotency-key': key, authorization: `Bearer ${other.apiKey}` })
    expect(otherPartner.headers['idempotent-replayed']).toBeUndefined()
    clock.advance(24 * 60 * 60 * 1000 - 1)
    expect((await create(body, { 'idempotency-key': key })).headers['idempotent-replayed']).toBe('true')
    clock.advance(1)
    const later = await create({ ...body, merchantName: 'Later Shop' }, { 'idempotency-key': key })
    expect(later.statusCode).toBe(201)
    expect(later.headers['idempotent-replayed']).toBeUndefined()
    expect(later.json<MerchantResponse>().merchant.id).not.toBe(first.json<MerchantResponse>().merchant.id)
  })

  it('keeps nothing for a refused request: corrected, it may be retried with the same key', async () => {
    const key = newKey()
    const refused = await create({ ...body, iconUrl: logos.url('/missing.png') }, { 'idempotency-key': key })
    expect(refused.statusCode).toBe(400)
    const retried = await create(body, { 'idempotency-key': key })
    expect(retried.statusCode).toBe(201)
    expect(retried.headers['idempotent-replayed']).toBeUndefined()
  })
})

describe('PATCH /v1/merchants/{merchantId}', () => {
  it('changes the fields given and answers with the merchant, iconUrl included', async () => {
    const response = await update(account.merchantId, { merchantName: 'Renamed', merchantEmail: 'new@shop.example' })
    expect(response.statusCode, response.body).toBe(200)
    expect(MerchantResponse.parse(response.json()).merchant).toMatchObject({
      id: account.merchantId,
      name: 'Renamed',
      email: 'new@shop.example',
      iconUrl: null,
    })
    expect((await update(account.merchantId, { merchantEmail: 'again@shop.example' })).json<MerchantResponse>().merchant.name).toBe(
      'Renamed',
    )
  })

  it('needs at least one field', async () => {
    const response = await update(account.merchantId, {})
    expect(response.statusCode).toBe(400)
    expect(ErrorBody.parse(response.json()).code).toBe('params_validation')
  })

  it("answers 404 for another partner's merchant or an unknown one, and changes nothing", async () => {
    const other = await createAccount(ctx.tdb.db)
    for (const id of [other.merchantId, 'mer_unknown', 'not a merchant']) {
      const response = await update(encodeURIComponent(id), { merchantName: 'Stolen' })
      expect(response.statusCode, id).toBe(404)
      expect(ErrorBody.parse(response.json()).code).toBe('merchant_not_found')
    }
    const [row] = await ctx.tdb.db.query<{ name: string }>('SELECT name FROM merchants WHERE id = $1', [other.merchantId])
    expect(row?.name).toBe('Shop')
  })
})

describe('logos outside sandbox', () => {
  it('refuses a loopback logo host, naming the address, and contacts nothing', async () => {
    const png = logos.url('/logo.png', '127.0.0.1')
    const named = logos.url('/logo.png')
    for (const [iconUrl, message] of [
      [png, '127.0.0.1 is not a public address (loopback)'],
      [named, 'logos.till-tea.com resolves to a loopback address, not a public one'],
    ] as const) {
      const response = await create({ ...body, iconUrl })
      expect(response.statusCode).toBe(400)
      const error = ErrorBody.parse(response.json())
      expect(error.code).toBe('params_validation')
      expect(error.issues).toEqual([{ field: 'iconUrl', message: expect.stringContaining(message) }])
    }
    expect(logos.hits('/logo.png')).toBe(0)
    expect(await merchantCount()).toBe(1)
  })
})

describe('settlementAddresses on PATCH', () => {
  const base = 'eip155:8453:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
  const ethereum = 'eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'

  it('sets one receiving account per network, replaces the list, and [] clears it', async () => {
    const set = await update(account.merchantId, { settlementAddresses: [base, ethereum] })
    expect(set.statusCode, set.body).toBe(200)
    expect(MerchantResponse.parse(set.json()).merchant.settlementAddresses).toEqual([base, ethereum])
    const replaced = await update(account.merchantId, { settlementAddresses: [ethereum] })
    expect(MerchantResponse.parse(replaced.json()).merchant.settlementAddresses).toEqual([ethereum])
    const renamed = await update(account.merchantId, { merchantName: 'Kept' })
    expect(MerchantResponse.parse(renamed.json()).merchant.settlementAddresses).toEqual([ethereum])
    const cleared = await update(account.merchantId, { settlementAddresses: [] })
    expect(MerchantResponse.parse(cleared.json()).merchant.settlementAddresses).toEqual([])
  })

  it('refuses an address that is not checksummed, naming the checksummed form, and changes nothing', async () => {
    await update(account.merchantId, { settlementAddresses: [ethereum] })
    for (const [accounts, field, message] of [
      [[base.toLowerCase()], 'settlementAddresses[0]', `is not EIP-55 checksummed; write it as ${base}`],
      [
        [ethereum, base.replace('833589f', '833589F')],
        'settlementAddresses[1]',
        'fails its EIP-55 checksum (the case of its letters), so a digit may be mistyped; copy it again from the wallet',
      ],
      [
        ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv'],
        'settlementAddresses[0]',
        'must be an account on an EVM network',
      ],
      [[base.replace('eip155:8453', 'eip155:08453')], 'settlementAddresses[0]', 'eip155:<decimal chain id>'],
    ] as const) {
      const response = await update(account.merchantId, { merchantName: 'Changed', settlementAddresses: accounts })
      expect(response.statusCode, JSON.stringify(accounts)).toBe(400)
      const error = ErrorBody.parse(response.json())
      expect(error.issues?.[0]?.field).toBe(field)
      expect(error.issues?.[0]?.message).toContain(message)
    }
    const [row] = await ctx.tdb.db.query<{ name: string; settlement_addresses: string[] }>(
      'SELECT name, settlement_addresses FROM merchants WHERE id = $1',
      [account.merchantId],
    )
    expect(row).toEqual({ name: 'Shop', settlement_addresses: [ethereum] })
  })
})
