// The Unapplied transfers page's data (issue 26, point 4): a merchant's transfers that paid nothing, for
// whoever may see that merchant, and "Refund" for admins and owners through the same service as /v1/refunds.
import { beforeEach, describe, expect, it } from 'vitest'
import { accountStore } from '../accounts/index.ts'
import { createAccount, testClock, type Account, useTestApp } from '../../test/fixtures.ts'
import { dashboardMember } from '../../test/dashboard-fixtures.ts'
import type { Address } from '../evm/ids.ts'
import { unappliedTransfers } from '../evm/unapplied.ts'
import type { DashboardRole } from './people.ts'

const clock = testClock()
const ctx = useTestApp({ clock, config: { sandbox: true } })
let account: Account
beforeEach(async () => {
  clock.set(new Date('2026-11-21T12:00:00.000Z'))
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

const BUYER = '0x52908400098527886e0f7030069857d2e4169ee7' as Address
const SHOP = '0x8ba1f109551bd432803012645ac136ddd64dba72' as Address
const USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' as Address
const HASH = `0x${'1'.padStart(64, '0')}`
const member = (role: DashboardRole, merchantId: string | null = null) => dashboardMember(ctx, clock, account, role, merchantId)

async function seed(merchantId: string): Promise<void> {
  await unappliedTransfers(ctx.tdb.db).record(
    {
      network: 'eip155:8453',
      txHash: HASH,
      logIndex: 3,
      merchantId,
      paymentId: null,
      reason: 'no_matching_payment',
      sender: BUYER,
      recipient: SHOP,
      token: USDC,
      amount: 12_500_000n,
      blockNumber: 101n,
    },
    clock.now(),
  )
}

describe('the Unapplied transfers page', () => {
  it('lists a merchant’s transfers as the API does, for whoever may see that merchant', async () => {
    await seed(account.merchantId)
    const viewer = await member('viewer')
    const listed = await viewer.get(`/dashboard/api/merchants/${account.merchantId}/unapplied-transfers`)
    const api = await ctx.app.inject({
      url: `/v1/merchants/${account.merchantId}/unapplied-transfers`,
      headers: { 'api-key': account.apiKey },
    })
    expect(listed.statusCode).toBe(200)
    expect(listed.json()).toEqual({
      data: api.json<{ data: object[] }>().data.map((transfer) => ({ ...transfer, explorerUrl: null })),
      nextCursor: null,
    })
    expect(listed.json<{ data: { reason: string; id: string }[] }>().data).toEqual([
      expect.objectContaining({ reason: 'no_matching_payment', id: `eip155:8453/${HASH}` }),
    ])

    const kiosk = await accountStore(ctx.tdb.db).createMerchant({
      partnerId: account.partnerId,
      name: 'Kiosk',
      email: 'k@shop.example',
      now: clock.now(),
    })
    const clerk = await member('admin', kiosk.id)
    const hidden = await clerk.get(`/dashboard/api/merchants/${account.merchantId}/unapplied-transfers`)
    expect([hidden.statusCode, hidden.json<{ code: string }>().code]).toEqual([404, 'merchant_not_found'])
    const stranger = await createAccount(ctx.tdb.db, { sandbox: true })
    expect((await viewer.get(`/dashboard/api/merchants/${stranger.merchantId}/unapplied-transfers`)).statusCode).toBe(404)
  })

  it('refunds through the same service as /v1/refunds, for admins and owners only', async () => {
    await seed(account.merchantId)
    const body = { unappliedTransferId: `eip155:8453/${HASH}` }
    const viewer = await member('viewer')
    const refused = await viewer.post(`/dashboard/api/merchants/${account.merchantId}/unapplied-transfers/refunds`, body, {
      'idempotency-key': 'v1',
    })
    expect([refused.statusCode, refused.json<{ code: string }>().code]).toEqual([403, 'role_forbidden'])
    const admin = await member('admin')
    const dashboard = await admin.post(`/dashboard/api/merchants/${account.merchantId}/unapplied-transfers/refunds`, body, {
      'idempotency-key': 'a1',
    })
    const api = await ctx.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: { ...account.headers, 'idempotency-key': 'api-1' },
      payload: body,
    })
    // This app has no chain configured, so the token cannot be refunded: both answer alike.
    expect([dashboard.statusCode, dashboard.json<{ code: string }>().code]).toEqual([api.statusCode, api.json<{ code: string }>().code])
    const missingKey = await admin.post(`/dashboard/api/merchants/${account.merchantId}/unapplied-transfers/refunds`, body)
    expect(missingKey.json<{ code: string }>().code).toBe('missing_idempotency_key')
  })
})
