// The dashboard's people (issue 25, points 2 to 4): invitations, passwords, sessions on the test clock, CSRF,
// roles and the audit log, over /dashboard/api/.
import { verify } from '@node-rs/argon2'
import { ErrorBody } from '@till/contract'
import type { LightMyRequestResponse } from 'fastify'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccount, testClock, type Account, useTestApp } from '../../test/fixtures.ts'
import { dashboardPeople } from './service.ts'
import { SESSION_IDLE_MS, SESSION_MAX_MS } from './sessions.ts'

const clock = testClock()
const ctx = useTestApp({ clock })
const ORIGIN = 'https://checkout.till.test'
const GOOD = 'plum-orbit-violet-kettle'
let account: Account
beforeEach(async () => {
  clock.set(new Date('2026-11-21T12:00:00.000Z'))
  account = await createAccount(ctx.tdb.db)
})

let emails = 0
async function invite(role: 'owner' | 'admin' | 'viewer' = 'owner', email = `person${++emails}@shop.example`) {
  const people = dashboardPeople({ db: ctx.tdb.db, clock })
  const { token } = await people.invite({ partnerId: account.partnerId, email, role, invitedBy: null, origin: { address: null } })
  return { token, email }
}

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url, payload, headers: { origin: ORIGIN, ...headers } })

const cookieOf = (response: LightMyRequestResponse) => String(response.headers['set-cookie'] ?? '').split(';')[0] ?? ''

/** A user who accepted an invitation with a password: their cookie and CSRF token. */
async function member(role: 'owner' | 'admin' | 'viewer' = 'owner') {
  const { token, email } = await invite(role)
  const accepted = await post(`/dashboard/api/invitations/${token}/password`, { password: GOOD })
  expect(accepted.statusCode, accepted.body).toBe(201)
  return { email, cookie: cookieOf(accepted), csrf: accepted.json<{ csrfToken: string }>().csrfToken }
}

const session = (cookie: string) => ctx.app.inject({ url: '/dashboard/api/session', headers: { cookie } })
const code = (response: LightMyRequestResponse) => ErrorBody.parse(response.json()).code

describe('an invitation', () => {
  it('shows who it is for, then makes an account with a password: an argon2id hash, and a session cookie', async () => {
    const { token, email } = await invite('admin')
    const shown = await ctx.app.inject({ url: `/dashboard/api/invitations/${token}` })
    expect(shown.json()).toMatchObject({ email, role: 'admin' })
    const accepted = await post(`/dashboard/api/invitations/${token}/password`, { password: GOOD })
    expect(accepted.statusCode).toBe(201)
    expect(accepted.headers['set-cookie']).toMatch(
      /^__Host-till_session=[0-9a-z]{52}; Path=\/; Secure; HttpOnly; SameSite=Lax; Max-Age=604800$/,
    )
    expect(accepted.json()).toMatchObject({ user: { email, role: 'admin', partnerId: account.partnerId, merchantId: null } })
    const [row] = await ctx.tdb.db.query<{ password_hash: string }>('SELECT password_hash FROM dashboard_users WHERE email = $1', [email])
    expect(row?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(await verify(row?.password_hash ?? '', GOOD)).toBe(true)
    expect(await verify(row?.password_hash ?? '', `${GOOD}!`)).toBe(false)
  })

  it.each([
    ['short', 'eleven-char'],
    ['common', 'passwordpassword'],
    ['common with digits', 'Password12345!'],
  ])('refuses a %s password, naming the field, and stays usable', async (_name, password) => {
    const { token } = await invite()
    const refused = await post(`/dashboard/api/invitations/${token}/password`, { password })
    expect(refused.statusCode).toBe(400)
    expect(ErrorBody.parse(refused.json()).issues?.[0]?.field).toBe('password')
    expect((await post(`/dashboard/api/invitations/${token}/password`, { password: GOOD })).statusCode).toBe(201)
  })

  it('is single-use, and expires after 24 hours', async () => {
    const { token } = await invite()
    expect((await post(`/dashboard/api/invitations/${token}/password`, { password: GOOD })).statusCode).toBe(201)
    const again = await post(`/dashboard/api/invitations/${token}/password`, { password: GOOD })
    expect([again.statusCode, code(again)]).toEqual([410, 'invitation_used'])

    const late = await invite()
    clock.advance(24 * 60 * 60 * 1000)
    const expired = await ctx.app.inject({ url: `/dashboard/api/invitations/${late.token}` })
    expect([expired.statusCode, code(expired)]).toEqual([410, 'invitation_expired'])
    expect(code(await ctx.app.inject({ url: '/dashboard/api/invitations/nope' }))).toBe('invitation_not_found')
  })
})

describe('signing in with email and password', () => {
  it('works with either case of the email, and answers a wrong password and an unknown email alike', async () => {
    const { email } = await member()
    const signedIn = await post('/dashboard/api/sign-in', { email: email.toUpperCase(), password: GOOD })
    expect(signedIn.statusCode).toBe(200)
    expect((await session(cookieOf(signedIn))).json()).toMatchObject({ user: { email } })
    const wrong = await post('/dashboard/api/sign-in', { email, password: 'not the password' })
    const unknown = await post('/dashboard/api/sign-in', { email: 'nobody@shop.example', password: 'not the password' })
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401])
    expect(wrong.json()).toEqual(unknown.json())
  })

  it('is refused after 5 failures for one account, even with the right password, until a quarter of an hour passes', async () => {
    const { email } = await member()
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await post('/dashboard/api/sign-in', { email, password: 'wrong password' })).statusCode).toBe(401)
    }
    const limited = await post('/dashboard/api/sign-in', { email, password: GOOD })
    expect([limited.statusCode, code(limited)]).toEqual([429, 'rate_limited'])
    expect(limited.headers['retry-after']).toBe('900')
    clock.advance(15 * 60 * 1000)
    expect((await post('/dashboard/api/sign-in', { email, password: GOOD })).statusCode).toBe(200)
  })

  it('is refused after 20 failures from one address, whatever accounts they tried', async () => {
    const { email } = await member()
    for (let attempt = 0; attempt < 20; attempt++) {
      await post('/dashboard/api/sign-in', { email: `guess${attempt}@shop.example`, password: 'wrong password' })
    }
    expect(code(await post('/dashboard/api/sign-in', { email, password: GOOD }))).toBe('rate_limited')
  })

  it('refuses a sign-in posted from another site', async () => {
    const { email } = await member()
    const forged = await post('/dashboard/api/sign-in', { email, password: GOOD }, { origin: 'https://evil.example' })
    expect([forged.statusCode, code(forged)]).toEqual([403, 'csrf_refused'])
  })
})

describe('a session', () => {
  it('ends after 12 hours idle, and lives on while used', async () => {
    const { cookie } = await member()
    clock.advance(SESSION_IDLE_MS - 60_000)
    expect((await session(cookie)).statusCode).toBe(200)
    clock.advance(SESSION_IDLE_MS - 60_000)
    expect((await session(cookie)).statusCode).toBe(200)
    clock.advance(SESSION_IDLE_MS)
    const idle = await session(cookie)
    expect([idle.statusCode, code(idle)]).toEqual([401, 'not_signed_in'])
  })

  it('ends 7 days after sign-in, however much it is used', async () => {
    const { cookie } = await member()
    for (let elapsed = 0; elapsed < SESSION_MAX_MS - SESSION_IDLE_MS; elapsed += SESSION_IDLE_MS / 2) {
      clock.advance(SESSION_IDLE_MS / 2)
      expect((await session(cookie)).statusCode).toBe(200)
    }
    clock.advance(SESSION_IDLE_MS)
    expect((await session(cookie)).statusCode).toBe(401)
  })

  it('signs out only with its CSRF token, from the dashboard’s origin', async () => {
    const { cookie, csrf } = await member()
    const noToken = await post('/dashboard/api/sign-out', {}, { cookie })
    expect([noToken.statusCode, code(noToken)]).toEqual([403, 'csrf_refused'])
    const otherSite = await post('/dashboard/api/sign-out', {}, { cookie, 'x-csrf-token': csrf, origin: 'https://evil.example' })
    expect(code(otherSite)).toBe('csrf_refused')
    expect((await session(cookie)).statusCode).toBe(200)
    const out = await post('/dashboard/api/sign-out', {}, { cookie, 'x-csrf-token': csrf })
    expect(out.statusCode).toBe(204)
    expect(out.headers['set-cookie']).toContain('Max-Age=0')
    expect((await session(cookie)).statusCode).toBe(401)
  })

  it('"sign out everywhere" ends every session of the user', async () => {
    const first = await member()
    const second = cookieOf(await post('/dashboard/api/sign-in', { email: first.email, password: GOOD }))
    const out = await post('/dashboard/api/sign-out-everywhere', {}, { cookie: first.cookie, 'x-csrf-token': first.csrf })
    expect(out.json()).toEqual({ ended: 2 })
    expect((await session(first.cookie)).statusCode).toBe(401)
    expect((await session(second)).statusCode).toBe(401)
  })
})

describe('roles and the audit log', () => {
  it('let an owner invite and read the log, and refuse a viewer and an admin with 403', async () => {
    const owner = await member('owner')
    const invited = await post(
      '/dashboard/api/invitations',
      { email: 'Ana@Shop.Example', role: 'viewer' },
      { cookie: owner.cookie, 'x-csrf-token': owner.csrf },
    )
    expect(invited.statusCode).toBe(201)
    expect(invited.json()).toMatchObject({ email: 'ana@shop.example', role: 'viewer' })
    expect(invited.json<{ invitationUrl: string }>().invitationUrl).toMatch(
      /^https:\/\/checkout\.till\.test\/dashboard\/invitation#[0-9a-z]{52}$/,
    )

    for (const role of ['viewer', 'admin'] as const) {
      const someone = await member(role)
      const refused = await post(
        '/dashboard/api/invitations',
        { email: 'x@shop.example', role: 'owner' },
        { cookie: someone.cookie, 'x-csrf-token': someone.csrf },
      )
      expect([refused.statusCode, code(refused)], role).toEqual([403, 'role_forbidden'])
      expect((await ctx.app.inject({ url: '/dashboard/api/audit-log', headers: { cookie: someone.cookie } })).statusCode).toBe(403)
    }

    await post('/dashboard/api/sign-in', { email: owner.email, password: 'wrong password' })
    const log = await ctx.app.inject({ url: '/dashboard/api/audit-log', headers: { cookie: owner.cookie } })
    const actions = log.json<{ data: { action: string; actor: string; address: string | null }[] }>().data
    expect(actions.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['invitation_created', 'invitation_accepted', 'sign_in', 'sign_in_failed']),
    )
    expect(actions.find((entry) => entry.action === 'sign_in_failed')).toMatchObject({ actor: owner.email, address: '127.0.0.1' })
  })
})

describe('passkeys', () => {
  it('offer a challenge for the invited email on the dashboard’s host, and refuse an answer that is no passkey', async () => {
    const { token, email } = await invite()
    const options = await post(`/dashboard/api/invitations/${token}/passkey/options`, {})
    expect(options.statusCode).toBe(200)
    const { challengeId, options: offered } = options.json<{
      challengeId: string
      options: { rp: { id: string }; user: { name: string } }
    }>()
    expect(offered).toMatchObject({ rp: { id: 'checkout.till.test' }, user: { name: email } })
    const forged = await post(`/dashboard/api/invitations/${token}/passkey`, {
      challengeId,
      response: { id: 'bm90LWEtcGFzc2tleQ', type: 'public-key', rawId: 'bm90LWEtcGFzc2tleQ', response: {} },
    })
    expect(forged.statusCode).toBe(400)
    // The challenge was used up by the failed answer: a second try needs new options.
    const again = await post(`/dashboard/api/invitations/${token}/passkey`, {
      challengeId,
      response: { id: 'bm90LWEtcGFzc2tleQ', type: 'public-key' },
    })
    expect(code(again)).toBe('invitation_expired')
    expect((await ctx.app.inject({ url: `/dashboard/api/invitations/${token}` })).statusCode).toBe(200)
  })

  it('refuse a sign-in with an unknown credential as any failed sign-in, and log it', async () => {
    const { challengeId } = (await post('/dashboard/api/passkey/options', {})).json<{ challengeId: string }>()
    const refused = await post('/dashboard/api/passkey/sign-in', { challengeId, response: { id: 'dW5rbm93bg', type: 'public-key' } })
    expect([refused.statusCode, code(refused)]).toEqual([401, 'sign_in_failed'])
    const [row] = await ctx.tdb.db.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM audit_log WHERE action = 'sign_in_failed' AND details->>'with' = 'passkey'",
    )
    expect(Number(row?.n)).toBeGreaterThan(0)
  })
})
