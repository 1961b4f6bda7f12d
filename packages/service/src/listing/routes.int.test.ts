import { ErrorBody, PaymentListResponse } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Account, createAccount, createBody, testClock, useTestApp } from '../../test/fixtures.ts'
import { at, insertPayments } from '../../test/listing-fixtures.ts'
import { accountStore } from '../accounts/store.ts'

const clock = testClock()
const ctx = useTestApp({ clock })

let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
})

async function list(query: string, headers: Record<string, string> = { 'api-key': account.apiKey }) {
  const response = await ctx.app.inject({ url: `/v1/payments${query}`, headers })
  return response
}

async function listOk(query: string, headers?: Record<string, string>) {
  const response = await list(query, headers)
  expect(response.statusCode, response.body).toBe(200)
  return PaymentListResponse.parse(response.json())
}

const idsOf = (body: PaymentListResponse) => body.data.map((p) => p.paymentId)

describe('GET /v1/payments', () => {
  it('lists the partner’s payments newest first, in the spec’s shape, with the resolved Pay-Version', async () => {
    const created = await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: account.headers, payload: createBody() })
    const { paymentId } = created.json<{ paymentId: string }>()
    const [older] = await insertPayments(ctx.tdb.db, [{ ...account, createdAt: at('2026-01-02'), buyer: 'eip155:8453:0xabc' }])
    const response = await list('')
    expect(response.headers['pay-version']).toBe('2026-02-18')
    const body = PaymentListResponse.parse(response.json())
    expect(idsOf(body)).toEqual([paymentId, older])
    expect(body.nextCursor).toBeNull()
    expect(body.data[0]).toMatchObject({
      paymentId,
      merchant: { id: account.merchantId, name: 'Shop', iconUrl: null },
      status: 'requires_action',
      isTerminal: false,
      fiatAmount: { unit: 'iso4217/EUR', value: '1999' },
    })
    expect(body.data[0]?.buyer).toBeUndefined()
    expect(body.data[1]).toMatchObject({ status: 'succeeded', isTerminal: true, buyer: { accountCaip10: 'eip155:8453:0xabc' } })
    expect(body.data[1]?.transaction?.networkId).toBe('8453')
  })

  it('keeps microseconds in createdAt', async () => {
    await insertPayments(ctx.tdb.db, [{ ...account, createdAt: '2026-03-04T05:06:07.123456Z' }])
    expect((await listOk('')).data[0]?.createdAt).toBe('2026-03-04T05:06:07.123456Z')
  })

  it('shows a pending payment past its deadline as expired, in rows and in stats', async () => {
    const created = await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: account.headers, payload: createBody() })
    const { paymentId } = created.json<{ paymentId: string }>()
    clock.advance(900_000)
    const body = await listOk('?status=requires_action')
    expect(body.data).toEqual([])
    const expired = await listOk('?status=expired')
    expect(idsOf(expired)).toEqual([paymentId])
    expect(expired.stats.totalTransactions).toBe(1)
  })

  it('hides other partners’ payments, even when asked by merchantId', async () => {
    const other = await createAccount(ctx.tdb.db)
    await insertPayments(ctx.tdb.db, [{ ...other, createdAt: at('2026-01-01') }])
    expect((await listOk('')).data).toEqual([])
    expect((await listOk(`?merchantId=${other.merchantId}`)).stats.totalTransactions).toBe(0)
  })

  describe('filters', () => {
    let second: string
    let ids: Record<string, string>
    beforeEach(async () => {
      second = (
        await accountStore(ctx.tdb.db).createMerchant({ partnerId: account.partnerId, name: 'B', email: 'b@x.io', now: clock.now() })
      ).id
      const seeded = await insertPayments(ctx.tdb.db, [
        {
          ...account,
          createdAt: at('2026-01-01'),
          referenceId: 'INV-2026/001',
          tokenSymbol: 'USDC',
          network: 'eip155:8453',
          amountMinor: 500n,
        },
        { ...account, createdAt: at('2026-01-02'), status: 'failed', tokenSymbol: 'USDT', network: 'eip155:1' },
        { ...account, merchantId: second, createdAt: at('2026-01-03'), status: 'pending', referenceId: 'inv-2026/002' },
        { ...account, merchantId: second, createdAt: at('2026-01-04'), tokenSymbol: 'USDC', network: 'eip155:137', amountMinor: 900n },
      ])
      ids = { usdcBase: seeded[0] ?? '', usdtFailed: seeded[1] ?? '', pending: seeded[2] ?? '', usdcPolygon: seeded[3] ?? '' }
    })

    it.each([
      ['?startTs=2026-01-02T12:00:00Z', ['usdcPolygon', 'pending', 'usdtFailed']],
      ['?endTs=2026-01-02T12:00:00Z', ['usdcBase']],
      ['?startTs=2026-01-02T13:00:00%2B01:00&endTs=2026-01-04T00:00:00-00:00', ['pending', 'usdtFailed']],
      ['?token_symbol=USDC', ['usdcPolygon', 'usdcBase']],
      ['?token_symbol=USDT&token_symbol=USDC', ['usdcPolygon', 'usdtFailed', 'usdcBase']],
      ['?network=eip155:1', ['usdtFailed']],
      ['?network=eip155:1,eip155:137', ['usdcPolygon', 'usdtFailed']],
      ['?status=requires_action', ['pending']],
      ['?status=failed&status=requires_action', ['pending', 'usdtFailed']],
      ['?status=cancelled', []],
      ['?referenceId=inv-2026', ['pending', 'usdcBase']],
      ['?referenceId=2026/002', ['pending']],
      ['?sortBy=amount&sortDir=asc&token_symbol=USDC', ['usdcBase', 'usdcPolygon']],
      ['?sortDir=asc', ['usdcBase', 'usdtFailed', 'pending', 'usdcPolygon']],
    ] as const)('%s', async (query, expected) => {
      const body = await listOk(query)
      expect(idsOf(body)).toEqual(expected.map((name) => ids[name]))
      expect(body.stats.totalTransactions).toBe(expected.length)
    })

    it('merchantId, repeated', async () => {
      expect(idsOf(await listOk(`?merchantId=${second}`))).toEqual([ids.usdcPolygon, ids.pending])
      expect((await listOk(`?merchantId=${second}&merchantId=${account.merchantId}`)).data).toHaveLength(4)
    })

    it('asset filters like one token_symbol on 2026-02-18 and is refused on the preview', async () => {
      expect(idsOf(await listOk('?asset=USDT'))).toEqual([ids.usdtFailed])
      const refused = await list('?asset=USDT', { 'api-key': account.apiKey, 'pay-version': '2026-02-19.preview' })
      expect(refused.statusCode).toBe(400)
      expect(ErrorBody.parse(refused.json())).toMatchObject({
        code: 'invalid_params',
        issues: [{ field: 'asset', message: expect.stringContaining('token_symbol') }],
      })
      const preview = await list('?token_symbol=USDT', { 'api-key': account.apiKey, 'pay-version': '2026-02-19.preview' })
      expect(preview.headers['pay-version']).toBe('2026-02-19.preview')
      expect(idsOf(PaymentListResponse.parse(preview.json()))).toEqual([ids.usdtFailed])
    })
  })

  describe('refuses bad queries with the spec’s error body', () => {
    it.each([
      ['?limit=abc', 'invalid_params', ['limit']],
      ['?limit=0', 'params_validation', ['limit']],
      ['?limit=201', 'params_validation', ['limit']],
      ['?startTs=yesterday', 'invalid_params', ['startTs']],
      ['?startTs=2026-01-02T00:00:00Z&endTs=2026-01-02T00:00:00Z', 'params_validation', ['endTs']],
      ['?startTs=2026-01-02T00:00:00Z&endTs=2026-01-01T00:00:00Z', 'params_validation', ['endTs']],
      ['?token_symbol=eip155:1/erc20:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', 'params_validation', ['token_symbol[0]']],
      ['?network=ethereum', 'invalid_params', ['network[0]']],
      ['?status=pending', 'invalid_params', ['status[0]']],
      ['?referenceId=ab', 'params_validation', ['referenceId']],
      ['?referenceId=a%25b', 'params_validation', ['referenceId']],
      ['?sortBy=price&limits=5', 'invalid_params', ['sortBy', 'limits']],
      ['?cursor=abc', 'invalid_params', ['cursor']],
    ])('%s → %s', async (query, code, fields) => {
      const response = await list(query)
      expect(response.statusCode).toBe(400)
      const body = ErrorBody.parse(response.json())
      expect(body.code).toBe(code)
      expect(body.issues?.map((issue) => issue.field)).toEqual(fields)
    })

    it.each([
      [{}, 'missing_api_key'],
      [{ 'api-key': 'till_live_nope' }, 'invalid_api_key'],
    ])('401 for %j', async (headers, code) => {
      const response = await list('', headers)
      expect(response.statusCode).toBe(401)
      expect(ErrorBody.parse(response.json()).code).toBe(code)
    })

    it.each([
      ['2026-02-31', 'invalid_api_version'],
      ['2030-01-01', 'unknown_api_version'],
    ])('Pay-Version %s → %s', async (version, code) => {
      const response = await list('', { 'api-key': account.apiKey, 'pay-version': version })
      expect(ErrorBody.parse(response.json()).code).toBe(code)
    })

    it('api_version_downgrade below the pin', async () => {
      const pinned = await createAccount(ctx.tdb.db, { version: '2026-02-19.preview' })
      const response = await list('', { 'api-key': pinned.apiKey, 'pay-version': '2026-02-18' })
      expect(ErrorBody.parse(response.json()).code).toBe('api_version_downgrade')
    })
  })
})

describe('GET /v1/merchants/payments', () => {
  it('lists one merchant’s payments with Api-Key and Merchant-Id, and refuses merchantId', async () => {
    const second = await accountStore(ctx.tdb.db).createMerchant({
      partnerId: account.partnerId,
      name: 'B',
      email: 'b@x.io',
      now: clock.now(),
    })
    const [mine] = await insertPayments(ctx.tdb.db, [
      { ...account, createdAt: at('2026-01-01') },
      { ...account, merchantId: second.id, createdAt: at('2026-01-02') },
    ])
    const response = await ctx.app.inject({ url: '/v1/merchants/payments', headers: account.headers })
    const body = PaymentListResponse.parse(response.json())
    expect(idsOf(body)).toEqual([mine])
    expect(body.stats.totalTransactions).toBe(1)
    const refused = await ctx.app.inject({ url: `/v1/merchants/payments?merchantId=${second.id}`, headers: account.headers })
    expect(ErrorBody.parse(refused.json())).toMatchObject({ code: 'invalid_params', issues: [{ field: 'merchantId' }] })
    const other = await createAccount(ctx.tdb.db)
    const foreign = await ctx.app.inject({
      url: '/v1/merchants/payments',
      headers: { ...account.headers, 'merchant-id': other.merchantId },
    })
    expect(foreign.statusCode).toBe(404)
  })
})

describe('App-Id and Client-Id', () => {
  it('list only the payments that client paid through that app, with stats over them alone', async () => {
    const accounts = accountStore(ctx.tdb.db)
    const app = await accounts.createApp({ partnerId: account.partnerId, name: 'Wallet', now: clock.now() })
    const [mine] = await insertPayments(ctx.tdb.db, [
      { ...account, createdAt: at('2026-01-01'), wallet: { appId: app.id, clientId: 'client-1' } },
      { ...account, createdAt: at('2026-01-02'), wallet: { appId: app.id, clientId: 'client-2' } },
      { ...account, createdAt: at('2026-01-03') },
    ])
    const body = await listOk('', { 'app-id': app.id, 'client-id': 'client-1' })
    expect(idsOf(body)).toEqual([mine])
    expect(body.stats).toMatchObject({ totalTransactions: 1, totalCustomers: 1 })
    expect((await listOk('', { 'app-id': app.id, 'client-id': 'client-3' })).data).toEqual([])
  })

  it.each([
    [{ 'app-id': 'APP' }, 'missing_api_key', /Client-Id/],
    [{ 'app-id': 'app_unknown', 'client-id': 'c' }, 'invalid_api_key', /App-Id/],
  ])('%j → %s', async (headers, code, message) => {
    const response = await list('', headers)
    expect(response.statusCode).toBe(401)
    const body = ErrorBody.parse(response.json())
    expect(body.code).toBe(code)
    expect(body.message).toMatch(message)
  })

  it('are not accepted by the merchant API', async () => {
    const app = await accountStore(ctx.tdb.db).createApp({ partnerId: account.partnerId, name: 'Wallet', now: clock.now() })
    const response = await ctx.app.inject({
      url: '/v1/merchants/payments',
      headers: { 'app-id': app.id, 'client-id': 'c', 'merchant-id': account.merchantId },
    })
    expect(response.statusCode).toBe(401)
    expect(ErrorBody.parse(response.json()).code).toBe('missing_api_key')
  })
})
