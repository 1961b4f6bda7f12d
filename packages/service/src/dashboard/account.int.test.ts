// "Your account" (issue 26, point 6): a member's own passkeys, password and sessions; nobody is left without
// a way to sign in, and a password is changed only with the current one.
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccount, testClock, type Account, useTestApp } from '../../test/fixtures.ts'
import { dashboardMember } from '../../test/dashboard-fixtures.ts'

const clock = testClock()
const ctx = useTestApp({ clock, config: { sandbox: true } })
let account: Account
beforeEach(async () => {
  clock.set(new Date('2026-11-21T12:00:00.000Z'))
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

type View = { passkeys: { id: string; name: string }[]; hasPassword: boolean; sessions: { id: string; current: boolean }[] }
type Problem = { code: string; issues?: { field: string; message: string }[] }
const member = () => dashboardMember(ctx, clock, account, 'viewer')
const idOf = async (user: Awaited<ReturnType<typeof member>>) =>
  (await user.get('/dashboard/api/session')).json<{ user: { id: string } }>().user.id
const addPasskey = async (userId: string, id: string, name: string) =>
  ctx.tdb.db.query(
    `INSERT INTO dashboard_passkeys (credential_id, user_id, public_key, name, created_at) VALUES ($1, $2, '\\x00', $3, $4)`,
    [id, userId, name, clock.now()],
  )

describe('your account', () => {
  it('changes your password only with the current one, and refuses a common new one', async () => {
    const me = await member()
    const wrong = await me.post('/dashboard/api/account/password', {
      currentPassword: 'not it at all',
      newPassword: 'a-brand-new-passphrase',
    })
    expect([wrong.statusCode, wrong.json<Problem>().issues?.[0]?.field]).toEqual([400, 'currentPassword'])
    const common = await me.post('/dashboard/api/account/password', {
      currentPassword: 'plum-orbit-violet-kettle',
      newPassword: 'passwordpassword',
    })
    expect(common.json<Problem>().issues?.[0]?.field).toBe('newPassword')
    const changed = await me.post('/dashboard/api/account/password', {
      currentPassword: 'plum-orbit-violet-kettle',
      newPassword: 'a-brand-new-passphrase',
    })
    expect(changed.json()).toEqual({ hasPassword: true })
    const email = (await me.get('/dashboard/api/session')).json<{ user: { email: string } }>().user.email
    const signIn = (password: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/dashboard/api/sign-in',
        headers: { origin: 'https://checkout.till.test' },
        payload: { email, password },
      })
    expect((await signIn('plum-orbit-violet-kettle')).statusCode).toBe(401)
    expect((await signIn('a-brand-new-passphrase')).statusCode).toBe(200)
  })

  it('lists your open sessions, the current one marked, and ends another', async () => {
    const me = await member()
    const email = (await me.get('/dashboard/api/session')).json<{ user: { email: string } }>().user.email
    const other = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/api/sign-in',
      headers: { origin: 'https://checkout.till.test' },
      payload: { email, password: 'plum-orbit-violet-kettle' },
    })
    const otherCookie = String(other.headers['set-cookie']).split(';')[0] ?? ''
    const sessions = (await me.get('/dashboard/api/account')).json<View>().sessions
    expect(sessions.map((session) => session.current).sort()).toEqual([false, true])
    const elsewhere = sessions.find((session) => !session.current)
    expect((await me.post(`/dashboard/api/account/sessions/${elsewhere?.id}/end`)).statusCode).toBe(200)
    expect((await ctx.app.inject({ url: '/dashboard/api/session', headers: { cookie: otherCookie } })).statusCode).toBe(401)
    expect((await me.get('/dashboard/api/account')).json<View>().sessions).toHaveLength(1)
    expect((await me.post(`/dashboard/api/account/sessions/${elsewhere?.id}/end`)).statusCode).toBe(404)
  })

  it('renames and removes your passkeys, but never your only way to sign in', async () => {
    const me = await member()
    const myId = await idOf(me)
    await addPasskey(myId, 'cred-a', 'Passkey')
    expect((await me.post('/dashboard/api/account/passkeys/cred-a/rename', { name: 'Work laptop' })).json()).toEqual({
      id: 'cred-a',
      name: 'Work laptop',
    })
    expect((await me.get('/dashboard/api/account')).json<View>().passkeys).toEqual([
      expect.objectContaining({ id: 'cred-a', name: 'Work laptop' }),
    ])
    // Someone else's passkey is not yours to touch.
    const colleague = await member()
    await addPasskey(await idOf(colleague), 'cred-b', 'Theirs')
    expect((await me.post('/dashboard/api/account/passkeys/cred-b/remove')).statusCode).toBe(404)
    // With a password, the last passkey can go; without one, it cannot.
    expect((await me.post('/dashboard/api/account/passkeys/cred-a/remove')).statusCode).toBe(200)
    await ctx.tdb.db.query('UPDATE dashboard_users SET password_hash = NULL WHERE id = $1', [myId])
    await addPasskey(myId, 'cred-c', 'Phone')
    const refused = await me.post('/dashboard/api/account/passkeys/cred-c/remove')
    expect([refused.statusCode, refused.json<Problem>().code]).toEqual([409, 'last_sign_in_method'])
    expect((await me.get('/dashboard/api/account')).json<View>()).toMatchObject({ hasPassword: false, passkeys: [{ id: 'cred-c' }] })
    // Setting a first password needs no current one.
    expect((await me.post('/dashboard/api/account/password', { newPassword: 'a-brand-new-passphrase' })).statusCode).toBe(200)
    const log = (await ctx.tdb.db.query<{ action: string }>('SELECT action FROM audit_log WHERE user_id = $1 ORDER BY id', [myId])).map(
      (row) => row.action,
    )
    expect(log.filter((action) => action.startsWith('passkey_') || action.startsWith('password_'))).toEqual([
      'passkey_renamed',
      'passkey_removed',
      'password_set',
    ])
  })
})
