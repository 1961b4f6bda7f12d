import { ErrorBody, type OperationId, OPERATIONS, operation } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Account, createAccount, useTestApp } from '../../test/fixtures.ts'
import { accountStore } from '../accounts/store.ts'

// Who may call each route is read from @till/contract's operations table, which the OpenAPI document's
// `security` is written from too: each way in is tried on every operation, and works exactly where the table
// says. Every failed try is a 401 from one address, hence the raised limit.
const ctx = useTestApp({ config: { sandbox: true, apiRateLimits: { authFailuresPerAddress: { limit: 10_000, windowMs: 60_000 } } } })

let account: Account
let wallet: Record<string, string>
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db, { sandbox: true })
  const app = await accountStore(ctx.tdb.db).createApp({ partnerId: account.partnerId, name: 'Wallet', now: new Date() })
  wallet = { 'app-id': app.id, 'client-id': 'client-a' }
})

function call(id: OperationId, headers: Record<string, string>) {
  const { method, path } = operation(id)
  const url = path.replaceAll(/\{\w+\}/g, 'pay_00000000000000000000000000000000')
  return ctx.app.inject({ method, url, headers, ...(method === 'POST' || method === 'PATCH' ? { payload: {} } : {}) })
}

const errorOf = (response: { json(): unknown }) => ErrorBody.safeParse(response.json()).data

describe.each(Object.keys(OPERATIONS) as OperationId[])('%s', (id) => {
  const { auth } = operation(id)

  it('takes the Api-Key header', async () => {
    const response = await call(id, { 'api-key': account.apiKey, 'merchant-id': account.merchantId })
    expect(response.statusCode, response.body).not.toBe(401)
  })

  it(`${auth.includes('bearer') ? 'takes' : 'refuses'} the key as Authorization: Bearer, as the table says`, async () => {
    const response = await call(id, { authorization: `Bearer ${account.apiKey}`, 'merchant-id': account.merchantId })
    if (auth.includes('bearer')) expect(response.statusCode, response.body).not.toBe(401)
    else expect([response.statusCode, errorOf(response)?.code]).toEqual([401, 'missing_api_key'])
  })

  it(`${auth.includes('walletApp') ? 'takes' : 'refuses'} a wallet app's App-Id + Client-Id, as the table says`, async () => {
    const response = await call(id, wallet)
    if (auth.includes('walletApp')) expect(response.statusCode, response.body).not.toBe(401)
    else
      expect([response.statusCode, errorOf(response)?.message]).toEqual([401, expect.stringContaining('accepted by GET /v1/payments only')])
  })

  it(`${auth.includes('merchantKey') ? 'wants' : 'does without'} Merchant-Id, as the table says`, async () => {
    const response = await call(id, { 'api-key': account.apiKey })
    const wantsMerchantId = errorOf(response)?.issues?.some((issue) => issue.field === 'Merchant-Id') ?? false
    expect(wantsMerchantId, response.body).toBe(auth.includes('merchantKey'))
  })
})
