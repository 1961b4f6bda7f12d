// The Team page's data (issue 26, point 5): owners of the whole partner see its members and open invitations,
// change roles, remove members (whose sessions end at once) and revoke passkeys; the partner keeps an owner.
import { beforeEach, describe, expect, it } from 'vitest'
import { accountStore } from '../accounts/index.ts'
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

type Team = {
  members: { id: string; email: string; role: string; status: string; passkeys: { id: string }[]; lastSignInAt: string | null }[]
  invitations: { email: string; role: string }[]
}
const member = (role: DashboardRole, merchantId: string | null = null) => dashboardMember(ctx, clock, account, role, merchantId)
const codeOf = (response: { json: <T>() => T }) => response.json<{ code: string }>().code
async function idOf(user: Awaited<ReturnType<typeof member>>): Promise<string> {
  return (await user.get('/dashboard/api/session')).json<{ user: { id: string } }>().user.id
}

describe('the Team page', () => {
  it('lists members with their last sign-in and passkeys, and open invitations; changes a role, logged', async () => {
    const owner = await member('owner')
    const admin = await member('admin')
    const adminId = await idOf(admin)
    const invited = await owner.post('/dashboard/api/invitations', { email: 'new@shop.example', role: 'viewer' })
    expect(invited.statusCode).toBe(201)
    const team = (await owner.get('/dashboard/api/team')).json<Team>()
    expect(team.members.find((m) => m.id === adminId)).toMatchObject({
      role: 'admin',
      status: 'active',
      passkeys: [],
      lastSignInAt: clock.now().toISOString(),
    })
    expect(team.invitations).toEqual([expect.objectContaining({ email: 'new@shop.example', role: 'viewer' })])

    expect((await owner.post(`/dashboard/api/team/${adminId}/role`, { role: 'viewer' })).json()).toEqual({ id: adminId, role: 'viewer' })
    const refused = await admin.post('/dashboard/api/invitations', { email: 'x@shop.example', role: 'viewer' })
    expect(codeOf(refused)).toBe('role_forbidden')
    const bad = await owner.post(`/dashboard/api/team/${adminId}/role`, { role: 'king' })
    expect([bad.statusCode, bad.json<{ issues: { field: string }[] }>().issues[0]?.field]).toEqual([400, 'role'])
    const log = (await owner.get('/dashboard/api/audit-log')).json<{ data: { action: string; target: string }[] }>()
    expect(log.data.filter((entry) => entry.action === 'member_role_changed')).toEqual([
      expect.objectContaining({ target: adminId, details: { from: 'admin', to: 'viewer' } }),
    ])
  })

  it('removes a member: their sessions end at once and their passkeys go; invited again, they come back', async () => {
    const owner = await member('owner')
    const admin = await member('admin')
    const adminId = await idOf(admin)
    await ctx.tdb.db.query(
      `INSERT INTO dashboard_passkeys (credential_id, user_id, public_key, name, created_at) VALUES ('cred-1', $1, '\\x00', 'Laptop', $2)`,
      [adminId, clock.now()],
    )
    expect((await owner.get('/dashboard/api/team')).json<Team>().members.find((m) => m.id === adminId)?.passkeys).toHaveLength(1)
    expect((await owner.post(`/dashboard/api/team/${adminId}/remove`)).json()).toEqual({ id: adminId, status: 'removed' })
    expect(codeOf(await admin.get('/dashboard/api/payments'))).toBe('not_signed_in')
    const removed = (await owner.get('/dashboard/api/team')).json<Team>().members.find((m) => m.id === adminId)
    expect(removed).toMatchObject({ status: 'removed', passkeys: [] })
    expect((await owner.post(`/dashboard/api/team/${adminId}/remove`)).statusCode).toBe(404)

    const again = await owner.post('/dashboard/api/invitations', { email: removed?.email, role: 'viewer' })
    const token = new URL(again.json<{ invitationUrl: string }>().invitationUrl).hash.slice(1)
    const joined = await ctx.app.inject({
      method: 'POST',
      url: `/dashboard/api/invitations/${token}/password`,
      headers: { origin: 'https://checkout.till.test' },
      payload: { password: 'another-long-password-9' },
    })
    expect(joined.statusCode).toBe(201)
    expect((await owner.get('/dashboard/api/team')).json<Team>().members.find((m) => m.id === adminId)).toMatchObject({
      status: 'active',
      role: 'viewer',
    })
  })

  it('revokes a member’s passkey', async () => {
    const owner = await member('owner')
    const adminId = await idOf(await member('admin'))
    await ctx.tdb.db.query(
      `INSERT INTO dashboard_passkeys (credential_id, user_id, public_key, name, created_at) VALUES ('cred-2', $1, '\\x00', 'Phone', $2)`,
      [adminId, clock.now()],
    )
    expect((await owner.post(`/dashboard/api/team/${adminId}/passkeys/cred-2/revoke`)).statusCode).toBe(200)
    expect((await owner.post(`/dashboard/api/team/${adminId}/passkeys/cred-2/revoke`)).statusCode).toBe(404)
    expect((await owner.get('/dashboard/api/team')).json<Team>().members.find((m) => m.id === adminId)?.passkeys).toEqual([])
  })

  it('keeps an owner: the last one cannot be demoted or removed, and two owners demoting each other at once leave one', async () => {
    const first = await member('owner')
    const firstId = await idOf(first)
    for (const response of [
      await first.post(`/dashboard/api/team/${firstId}/role`, { role: 'admin' }),
      await first.post(`/dashboard/api/team/${firstId}/remove`),
    ]) {
      expect([response.statusCode, codeOf(response)]).toEqual([409, 'last_owner'])
    }
    const second = await member('owner')
    const secondId = await idOf(second)
    const [a, b] = await Promise.all([
      first.post(`/dashboard/api/team/${secondId}/role`, { role: 'viewer' }),
      second.post(`/dashboard/api/team/${firstId}/role`, { role: 'viewer' }),
    ])
    // Whichever commits second finds its author demoted (403) or itself the last owner's demotion (409).
    expect([a.statusCode, b.statusCode].filter((status) => status === 200)).toHaveLength(1)
    const owners = (
      await ctx.tdb.db.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM dashboard_users WHERE partner_id = $1 AND role = 'owner' AND removed_at IS NULL",
        [account.partnerId],
      )
    )[0]?.n
    expect(owners).toBe('1')
  })

  it('is for owners of the whole partner: admins, viewers and an owner limited to one merchant get 403', async () => {
    const kiosk = await accountStore(ctx.tdb.db).createMerchant({
      partnerId: account.partnerId,
      name: 'Kiosk',
      email: 'k@shop.example',
      now: clock.now(),
    })
    const ownerId = await idOf(await member('owner'))
    for (const user of [await member('admin'), await member('viewer'), await member('owner', kiosk.id)]) {
      for (const response of [
        await user.get('/dashboard/api/team'),
        await user.post(`/dashboard/api/team/${ownerId}/role`, { role: 'viewer' }),
        await user.post(`/dashboard/api/team/${ownerId}/remove`),
        await user.post(`/dashboard/api/team/${ownerId}/passkeys/x/revoke`),
      ]) {
        expect([response.statusCode, codeOf(response)]).toEqual([403, 'role_forbidden'])
      }
    }
  })

  it('refuses an invitation limited to another partner’s merchant', async () => {
    const stranger = await createAccount(ctx.tdb.db, { sandbox: true })
    const owner = await member('owner')
    const refused = await owner.post('/dashboard/api/invitations', {
      email: 'y@shop.example',
      role: 'viewer',
      merchantId: stranger.merchantId,
    })
    expect([refused.statusCode, refused.json<{ issues: { field: string }[] }>().issues[0]?.field]).toEqual([400, 'merchantId'])
  })
})
