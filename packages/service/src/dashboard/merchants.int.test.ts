// The Merchants page's data (issue 26, point 1): admins and owners of the whole partner create and change
// merchants over the same service as /v1, refused in the API's own words; everyone sees what they may see.
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccount, testClock, type Account, useTestApp } from '../../test/fixtures.ts'
import { dashboardMember } from '../../test/dashboard-fixtures.ts'
import type { DashboardRole } from './people.ts'

const clock = testClock()
const ctx = useTestApp({ clock, config: { sandbox: true } })
let account: Account
beforeEach(async () => {
  clock.set(new Date('2026-11-21T12:00:00.000Z'))
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

type Problem = { code: string; issues: { field: string; message: string }[] }
const member = (role: DashboardRole, merchantId: string | null = null) => dashboardMember(ctx, clock, account, role, merchantId)
const create = (user: Awaited<ReturnType<typeof member>>, body: object, key = 'k1') =>
  user.post('/dashboard/api/merchants', body, { 'idempotency-key': key })
const viaApi = (body: object) =>
  ctx.app.inject({
    method: 'POST',
    url: '/v1/merchants',
    headers: { 'api-key': account.apiKey, 'idempotency-key': 'api-1' },
    payload: body,
  })

// An account on the local chain: checksummed, and the same address lower-cased (its checksum lost).
const ACCOUNT = 'eip155:8453:0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('the Merchants page', () => {
  it('creates a merchant, once per idempotency key, and lists it; logged', async () => {
    const admin = await member('admin')
    const made = await create(admin, { merchantName: 'Kiosk', merchantEmail: 'kiosk@shop.example' })
    expect(made.statusCode).toBe(201)
    const { merchant } = made.json<{ merchant: { id: string; name: string; status: string } }>()
    expect((await create(admin, { merchantName: 'Kiosk', merchantEmail: 'kiosk@shop.example' })).json()).toEqual(made.json())
    const listed = (await admin.get('/dashboard/api/merchants')).json<{ data: { id: string; name: string }[] }>().data
    expect(listed.map((m) => m.id).sort()).toEqual([merchant.id, account.merchantId].sort())
    const owner = await member('owner')
    const log = (await owner.get('/dashboard/api/audit-log')).json<{ data: { action: string; target: string }[] }>()
    expect(log.data.filter((entry) => entry.action === 'merchant_created').map((entry) => entry.target)).toEqual([merchant.id])
  })

  it('refuses what the API refuses, in the same words', async () => {
    const admin = await member('admin')
    for (const body of [
      { merchantName: '', merchantEmail: 'not an email' },
      { merchantName: 'Kiosk', merchantEmail: 'k@shop.example', iconUrl: 'http://logo.example/a.png' },
    ]) {
      const dashboard = await create(admin, body, JSON.stringify(body))
      const api = await viaApi(body)
      expect(dashboard.statusCode).toBe(400)
      expect(dashboard.json<Problem>().issues).toEqual(api.json<Problem>().issues)
    }
  })

  it('changes receiving accounts, explaining a lost checksum and a second account on one network', async () => {
    const admin = await member('admin')
    const change = (settlementAddresses: string[]) => admin.post(`/dashboard/api/merchants/${account.merchantId}`, { settlementAddresses })
    const lowered = await change([ACCOUNT.toLowerCase().replace('eip155:8453:0x', 'eip155:8453:0x')])
    expect(lowered.json<Problem>().issues).toEqual([{ field: 'settlementAddresses[0]', message: expect.stringMatching(/checksum/i) }])
    const twice = await change([ACCOUNT, 'eip155:8453:0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'])
    expect(twice.json<Problem>().issues).toEqual([
      { field: 'settlementAddresses[1]', message: 'a second account on eip155:8453; give one per network' },
    ])
    const saved = await change([ACCOUNT])
    expect(saved.json()).toMatchObject({ merchant: { settlementAddresses: [ACCOUNT] } })
  })

  it('lets viewers and users limited to a merchant only look', async () => {
    const clerk = await member('admin', account.merchantId)
    for (const user of [await member('viewer'), clerk]) {
      for (const response of [
        await create(user, { merchantName: 'Kiosk', merchantEmail: 'k@shop.example' }),
        await user.post(`/dashboard/api/merchants/${account.merchantId}`, { merchantName: 'Renamed' }),
      ]) {
        expect([response.statusCode, response.json<Problem>().code]).toEqual([403, 'role_forbidden'])
      }
    }
    expect((await clerk.get('/dashboard/api/merchants')).json<{ data: { id: string }[] }>().data.map((m) => m.id)).toEqual([
      account.merchantId,
    ])
  })
})
