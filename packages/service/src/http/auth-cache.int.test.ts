// With the key cache on (as in production), a key once verified skips the hash, but only that exact string.
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccount, createBody, type Account, useTestApp } from '../../test/fixtures.ts'

let account: Account
const ctx = useTestApp({ config: { authCacheTtlMs: 60_000 } })
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
})

const create = (apiKey: string) =>
  ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: { ...account.headers, 'api-key': apiKey }, payload: createBody() })

describe('the verified-key cache', () => {
  it('still refuses a forged secret for a key id it has verified and cached', async () => {
    expect((await create(account.apiKey)).statusCode).toBe(201)
    const forged = account.apiKey.slice(0, -4) + (account.apiKey.endsWith('AAAA') ? 'BBBB' : 'AAAA')
    const refused = await create(forged)
    expect(refused.statusCode).toBe(401)
    expect(refused.json()).toMatchObject({ code: 'invalid_api_key' })
    expect((await create(account.apiKey)).statusCode).toBe(201)
  })
})
