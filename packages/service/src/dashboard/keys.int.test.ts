// The API keys page's data (issue 26, point 2): a partner's owners list, make and revoke its keys; the secret
// is shown once; a revoked key is refused at once by every instance; "last used" is kept without a write
// on every request.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { accountStore } from '../accounts/index.ts'
import { createAccount, testApp, testClock, type Account, useTestApp } from '../../test/fixtures.ts'
import { dashboardMember } from '../../test/dashboard-fixtures.ts'

const clock = testClock()
const ctx = useTestApp({ clock, config: { sandbox: true } })
let account: Account
beforeEach(async () => {
  clock.set(new Date('2026-11-21T12:00:00.000Z'))
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

type KeyView = { id: string; prefix: string; label: string | null; createdBy: string | null; lastUsedAt: string | null; status: string }
const member = (role: 'owner' | 'admin' | 'viewer', merchantId: string | null = null) =>
  dashboardMember(ctx, clock, account, role, merchantId)
const listWith =
  (app = ctx.app) =>
  (apiKey: string) =>
    app.inject({ url: '/v1/payments?limit=1', headers: { 'api-key': apiKey } })

describe('the API keys page', () => {
  it('lists the partner’s keys, makes one whose secret is shown once and works, and never shows a secret again', async () => {
    const owner = await member('owner')
    const made = await owner.post('/dashboard/api/api-keys', { label: 'Shop backend' })
    expect(made.statusCode).toBe(201)
    const { apiKey, key } = made.json<{ apiKey: KeyView; key: string }>()
    expect(key).toMatch(new RegExp(`^${apiKey.prefix}_`))
    expect(apiKey).toMatchObject({ label: 'Shop backend', createdBy: expect.stringMatching(/@shop\.example$/), status: 'active' })
    expect((await listWith()(key)).statusCode).toBe(200)

    const listed = await owner.get('/dashboard/api/api-keys')
    expect(
      listed
        .json<{ data: KeyView[] }>()
        .data.map((k) => k.id)
        .sort(),
    ).toEqual([apiKey.id, account.apiKey.split('_')[3]].sort())
    expect(listed.body).not.toContain(key.split('_').at(-1))
    expect(listed.body).not.toContain(account.apiKey.split('_').at(-1))
    const bad = await owner.post('/dashboard/api/api-keys', { label: '  ' })
    expect([bad.statusCode, bad.json<{ issues: { field: string }[] }>().issues[0]?.field]).toEqual([400, 'label'])
  })

  it('is the partner’s owners’ alone: admins, viewers and an owner limited to one merchant get 403', async () => {
    const kiosk = await accountStore(ctx.tdb.db).createMerchant({
      partnerId: account.partnerId,
      name: 'Kiosk',
      email: 'k@shop.example',
      now: clock.now(),
    })
    for (const user of [await member('admin'), await member('viewer'), await member('owner', kiosk.id)]) {
      for (const response of [
        await user.get('/dashboard/api/api-keys'),
        await user.post('/dashboard/api/api-keys', { label: 'mine' }),
        await user.post(`/dashboard/api/api-keys/${account.apiKey.split('_')[3]}/revoke`),
      ]) {
        expect([response.statusCode, response.json<{ code: string }>().code]).toEqual([403, 'role_forbidden'])
      }
    }
    expect((await accountStore(ctx.tdb.db).listApiKeys(account.partnerId)).map((k) => k.revokedAt)).toEqual([null])
  })

  it('revokes a key, which a second instance that had it cached refuses at once, and logs who did it', async () => {
    // An instance that would trust a checked key for an hour, were it not told of revocations.
    const second = await testApp(ctx.tdb.db, { clock, config: { sandbox: true, authCacheTtlMs: 3_600_000 } })
    try {
      expect((await listWith(second)(account.apiKey)).statusCode).toBe(200)
      const owner = await member('owner')
      const keyId = account.apiKey.split('_')[3] ?? ''
      const revoked = await owner.post(`/dashboard/api/api-keys/${keyId}/revoke`)
      expect(revoked.json()).toEqual({ id: keyId, status: 'revoked' })
      await vi.waitFor(async () => expect((await listWith(second)(account.apiKey)).statusCode).toBe(401))
      expect((await listWith()(account.apiKey)).json()).toMatchObject({ code: 'invalid_api_key' })
      expect((await owner.post(`/dashboard/api/api-keys/${keyId}/revoke`)).statusCode).toBe(404)
      const log = (await owner.get('/dashboard/api/audit-log')).json<{ data: { action: string; target: string }[] }>()
      expect(log.data.filter((entry) => entry.action === 'api_key_revoked')).toEqual([
        expect.objectContaining({ action: 'api_key_revoked', target: keyId }),
      ])
    } finally {
      await second.close()
    }
  })

  it('keeps "last used" with at most one write a minute per key, however many requests come', async () => {
    const owner = await member('owner')
    const lastUsed = async () =>
      (await owner.get('/dashboard/api/api-keys')).json<{ data: KeyView[] }>().data.find((k) => account.apiKey.includes(k.id))?.lastUsedAt
    expect(await lastUsed()).toBeNull()
    await Promise.all(Array.from({ length: 50 }, () => listWith()(account.apiKey)))
    await vi.waitFor(async () => expect(await lastUsed()).toBe('2026-11-21T12:00:00.000Z'))
    // Set far back by hand: a write now would be allowed by the statement, so only the instance holds it back.
    await ctx.tdb.db.query("UPDATE api_keys SET last_used_at = '2000-01-01T00:00:00Z'")
    clock.advance(59_000)
    await Promise.all(Array.from({ length: 50 }, () => listWith()(account.apiKey)))
    clock.advance(2_000)
    await listWith()(account.apiKey)
    await vi.waitFor(async () => expect(await lastUsed()).toBe('2026-11-21T12:01:01.000Z'))
  })
})
