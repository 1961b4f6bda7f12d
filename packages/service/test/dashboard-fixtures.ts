import type { FastifyInstance } from 'fastify'
import type { Account, TestAppContext } from './fixtures.ts'
import type { Clock } from '../src/core/clock.ts'
import type { DashboardRole } from '../src/dashboard/people.ts'
import { dashboardPeople } from '../src/dashboard/service.ts'

/** The test app's public origin, which the dashboard's CSRF check expects in `Origin`. */
export const DASHBOARD_ORIGIN = 'https://checkout.till.test'

let emails = 0

/**
 * A signed-in dashboard user of the account's partner, invited and joined with a password as the invitation
 * page does: their cookie and CSRF token as the dashboard's page holds them, and requests made with both.
 */
export async function dashboardMember(
  ctx: TestAppContext,
  clock: Clock,
  account: Pick<Account, 'partnerId'>,
  role: DashboardRole,
  merchantId: string | null = null,
) {
  const people = dashboardPeople({ db: ctx.tdb.db, clock })
  const { token } = await people.invite({
    partnerId: account.partnerId,
    email: `staff${++emails}-${account.partnerId}@shop.example`,
    role,
    merchantId,
    invitedBy: null,
    origin: { address: null },
  })
  const app: FastifyInstance = ctx.app
  const accepted = await app.inject({
    method: 'POST',
    url: `/dashboard/api/invitations/${token}/password`,
    headers: { origin: DASHBOARD_ORIGIN },
    payload: { password: 'plum-orbit-violet-kettle' },
  })
  const cookie = String(accepted.headers['set-cookie']).split(';')[0] ?? ''
  const csrf = accepted.json<{ csrfToken: string }>().csrfToken
  return {
    cookie,
    get: (url: string) => app.inject({ url, headers: { cookie } }),
    post: (url: string, payload: object = {}, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url, payload, headers: { cookie, origin: DASHBOARD_ORIGIN, 'x-csrf-token': csrf, ...headers } }),
  }
}

/** Listens on a free loopback port, for what only real HTTP shows (a stream read as it comes); its base URL. */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('not listening')
  return `http://127.0.0.1:${address.port}`
}
