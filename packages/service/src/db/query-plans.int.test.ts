import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase, type TestDatabase } from '../../test/fixtures.ts'
import type { Queryable, Row, SqlValue } from './port.ts'
import type { ListingFilter } from '../listing/filter.ts'
import { readPage } from '../listing/page.ts'
import { readDailyVolumes } from '../listing/daily.ts'
import { readStats } from '../listing/stats.ts'
import { accountStore } from '../accounts/store.ts'
import { paymentStore } from '../payments/store.ts'
import { unappliedTransfers } from '../evm/unapplied.ts'
import { matchQueries } from '../evm/transfer-match.ts'
import { watchCursors } from '../evm/watch-cursors.ts'
import { refundStore } from '../refunds/store.ts'
import { auditLog } from '../audit/index.ts'
import { peopleStore } from '../dashboard/people.ts'
import { sessionStore } from '../dashboard/sessions.ts'
import { ownAccount } from '../dashboard/account.ts'
import { teamStore } from '../dashboard/team.ts'
import { paymentTimeline } from '../dashboard/timeline.ts'
import { DEFAULT_RETENTION, pruneOnce } from '../retention/index.ts'

let tdb: TestDatabase
beforeAll(async () => {
  tdb = await openTestDatabase()
})
afterAll(() => tdb.close())

/**
 * Runs a store method against a Queryable that EXPLAINs each statement instead of executing it, with
 * sequential scans priced out: a plan that still scans a whole table has no index to use.
 */
async function plansOf(call: (db: Queryable) => Promise<unknown>): Promise<string[]> {
  return tdb.db.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off')
    const plans: string[] = []
    const explaining: Queryable = {
      async query<T extends Row>(sql: string, params: readonly SqlValue[] = []) {
        const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)
        plans.push(rows.map((row) => row['QUERY PLAN']).join('\n'))
        return [] as T[]
      },
      exec: () => Promise.resolve(),
    }
    await call(explaining).catch(() => undefined)
    return plans
  })
}

const now = new Date('2026-11-21T12:00:00Z')
const lookups: Array<[string, (db: Queryable) => Promise<unknown>]> = [
  ['payment status by id', (db) => paymentStore(db).findStatus('pay_x')],
  ['payment by id', (db) => paymentStore(db).findById('pay_x')],
  ['payments by ids (the chain watcher)', (db) => paymentStore(db).findByIds(['pay_x', 'pay_y'])],
  ['live payment by merchant and referenceId', (db) => paymentStore(db).findLiveByReference('mer_x', 'order-1')],
  ['compare-and-set transition', (db) => paymentStore(db).transition({ id: 'pay_x', to: 'processing', reason: 'plan', now })],
  ['due pending payments (sweeper)', (db) => paymentStore(db).expireDue(now, 500)],
  ['one due payment (on read)', (db) => paymentStore(db).expireDue(now, 1, 'pay_x')],
  ['transitions of a payment', (db) => paymentStore(db).transitions('pay_x')],
  ['API key by id', (db) => accountStore(db).findActiveKey('key_x')],
  ['API keys of a partner (the API keys page)', (db) => accountStore(db).listApiKeys('ptn_x')],
  ['an API key revoked from the dashboard', (db) => accountStore(db).revokeApiKey('ptn_x', 'key_x', new Date())],
  ['an API key’s last use', (db) => accountStore(db).keyUsed('key_x', new Date())],
  ['merchant by id', (db) => accountStore(db).findMerchant('mer_x')],
  ['merchants of a partner', (db) => accountStore(db).listMerchants('ptn_x')],
  ['the sandbox partner', (db) => accountStore(db).findSandboxPartner()],
  ['app by id (App-Id)', (db) => accountStore(db).findApp('app_x')],
  ['addresses the chain watcher looks for', (db) => matchQueries(db).watched('eip155:8453', now)],
  ['found transactions already bound', (db) => matchQueries(db).bound('eip155:8453', ['0xab'])],
  ['quotes named by found references', (db) => matchQueries(db).byReference('eip155:8453', 'eip155:8453/erc20:0x1', ['0x01'])],
  [
    'quotes holding found exact amounts',
    (db) => matchQueries(db).byAmount('eip155:8453', 'eip155:8453/erc20:0x1', [{ to: '0x02', value: 5n }], now),
  ],
  ['open payments at found addresses', (db) => matchQueries(db).openAt('eip155:8453', 'eip155:8453/erc20:0x1', ['0x02'], now)],
  ['the chain watcher’s cursor', (db) => watchCursors(db).advance({ network: 'eip155:8453', owner: 'x', nextBlock: 5n, now, until: now })],
  ['unapplied transfers of a merchant, first page', (db) => unappliedTransfers(db).page('mer_x', { limit: 50 })],
  [
    'unapplied transfers of a merchant, next page',
    (db) =>
      unappliedTransfers(db).page('mer_x', {
        limit: 50,
        cursor: Buffer.from(JSON.stringify(['2026-11-21T12:00:00.000001Z', 'eip155:8453', `0x${'ab'.repeat(32)}`])).toString('base64url'),
      }),
  ],
  ['recorded unapplied transactions', (db) => unappliedTransfers(db).recorded('eip155:8453', [`0x${'ab'.repeat(32)}`])],
  ['an unapplied transfer to refund', (db) => unappliedTransfers(db).find('mer_x', 'eip155:8453', `0x${'ab'.repeat(32)}`)],
  ['refund by id', (db) => refundStore(db).findById('rfd_x')],
  ['refunds of a payment', (db) => refundStore(db).listByPayment('pay_x')],
  ['refunds of an unapplied transfer', (db) => refundStore(db).listByUnapplied('eip155:8453', `0x${'ab'.repeat(32)}`)],
  ['tokens a payment’s refunds hold', (db) => refundStore(db).tokenHeld('pay_x')],
  ['compare-and-set refund change', (db) => refundStore(db).move({ id: 'rfd_x', to: 'cancelled', now })],
  ['refunds due a check (refund follower)', (db) => refundStore(db).lease(now, now, 20)],
  ['refunds a transfer may pay (the chain watcher)', (db) => refundStore(db).awaitingTransferOn('eip155:8453')],
  ['a payment’s timeline (its dashboard page)', (db) => paymentTimeline(db, 'pay_x')],
  ['a dashboard session by its token', (db) => sessionStore(db).find('token', now)],
  [
    'failed sign-ins of an account and an address',
    (db) => auditLog(db).failedSignIns({ actor: 'a@b.example', address: '127.0.0.1', since: now }),
  ],
  ['a partner’s audit log', (db) => auditLog(db).page('ptn_x', { limit: 50 })],
  ['a dashboard user by email', (db) => peopleStore(db).userByEmail('a@b.example')],
  ['an invitation by its token', (db) => peopleStore(db).invitationByToken('token')],
  ['the Team page: members and open invitations', (db) => teamStore(db).members('ptn_x', new Date())],
  ['a member’s passkey revoked', (db) => teamStore(db).revokePasskey('ptn_x', 'usr_x', 'cred')],
  ['a member signed in', (db) => teamStore(db).signedIn('usr_x', new Date())],
  ['your account: passkeys, password and sessions', (db) => ownAccount(db).view('usr_x', Buffer.alloc(32), new Date())],
  ['your account: a session ended', (db) => ownAccount(db).endSession('usr_x', 'abcd', new Date())],
  ['rows past their retention (every kind, a batch each)', (db) => pruneOnce(db, now, DEFAULT_RETENTION)],
  ...listingQueries(),
]

function listingQueries(): Array<[string, (db: Queryable) => Promise<unknown>]> {
  const partner = { partnerId: 'ptn_x' }
  const filters: Array<[string, ListingFilter]> = [
    ['no filter', partner],
    ['merchants', { ...partner, merchantIds: ['mer_x', 'mer_y'] }],
    ['one merchant, last 30 days', { ...partner, merchantIds: ['mer_x'], startTs: '2026-10-22T12:00:00Z' }],
    ['statuses', { ...partner, statuses: ['succeeded', 'failed'] }],
    ['token and network', { ...partner, tokenSymbols: ['USDC'], networks: ['eip155:1'] }],
    ['referenceId substring', { ...partner, referenceId: 'order-12' }],
    ['time range', { ...partner, startTs: '2026-01-01T06:00:00Z', endTs: '2026-02-01T06:00:00Z' }],
    ['wallet client', { ...partner, wallet: { appId: 'app_x', clientId: 'c' } }],
    ['search: a payment id', { ...partner, search: { kind: 'payment', paymentId: 'pay_x' } }],
    ['search: a transaction hash', { ...partner, search: { kind: 'transaction', hash: `0x${'ab'.repeat(32)}` } }],
    ['search: a buyer address', { ...partner, search: { kind: 'buyer', address: `0x${'cd'.repeat(20)}` } }],
  ]
  const after = { date: { value: '2026-01-01T00:00:00.000001Z', id: 'pay_x' }, amount: { value: '12.5', id: 'pay_x' } }
  return filters.flatMap(
    ([name, filter]): Array<[string, (db: Queryable) => Promise<unknown>]> => [
      [`listing stats: ${name}`, (db) => readStats(db, filter)],
      [`chart days: ${name}`, (db) => readDailyVolumes(db, filter, new Date('2026-11-21T12:00:00Z'))],
      ...(['date', 'amount'] as const).flatMap((by) =>
        (['asc', 'desc'] as const).map((dir): [string, (db: Queryable) => Promise<unknown>] => [
          `listing page by ${by} ${dir}: ${name}`,
          (db) => readPage(db, { filter, sort: { by, dir }, limit: 50, after: after[by], logoUrl: () => null }),
        ]),
      ),
      ...(['date', 'amount'] as const).map((by): [string, (db: Queryable) => Promise<unknown>] => [
        `listing previous page by ${by}: ${name}`,
        (db) => readPage(db, { filter, sort: { by, dir: 'desc' }, limit: 50, after: after[by], backward: true, logoUrl: () => null }),
      ]),
    ],
  )
}

describe('every lookup the service makes is backed by an index', () => {
  it.each(lookups)('%s', async (_name, call) => {
    const plans = await plansOf(call)
    expect(plans.length).toBeGreaterThan(0)
    for (const plan of plans) {
      expect(plan).not.toMatch(
        /Seq Scan on (payments|payment_transitions|api_keys|merchants|partners|apps|payment_stats|payment_stats_partner|payment_stat_deltas|evm_unapplied_transfers|refunds|evm_transfers|webhook_events|payment_quotes|dashboard_users|dashboard_passkeys|dashboard_sessions|evm_confirmations|dashboard_sessions|dashboard_invitations|audit_log|webhook_deliveries|webhook_attempts|idempotency_keys|dashboard_challenges)\b/,
      )
    }
  })
})
