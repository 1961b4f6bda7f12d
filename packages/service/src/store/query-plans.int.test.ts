import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase, type TestDatabase } from '../../test/fixtures.ts'
import type { Queryable, Row, SqlValue } from '../db/port.ts'
import { accountStore } from './accounts.ts'
import { paymentStore } from './payments.ts'

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
  ['live payment by merchant and referenceId', (db) => paymentStore(db).findLiveByReference('mer_x', 'order-1')],
  ['compare-and-set transition', (db) => paymentStore(db).transition({ id: 'pay_x', to: 'processing', reason: 'plan', now })],
  ['due pending payments (sweeper)', (db) => paymentStore(db).expireDue(now, 500)],
  ['one due payment (on read)', (db) => paymentStore(db).expireDue(now, 1, 'pay_x')],
  ['transitions of a payment', (db) => paymentStore(db).transitions('pay_x')],
  ['API key by id', (db) => accountStore(db).findActiveKey('key_x')],
  ['merchant by id', (db) => accountStore(db).findMerchant('mer_x')],
  ['merchants of a partner', (db) => accountStore(db).listMerchants('ptn_x')],
  ['the sandbox partner', (db) => accountStore(db).findSandboxPartner()],
]

describe('every lookup the service makes is backed by an index', () => {
  it.each(lookups)('%s', async (_name, call) => {
    const plans = await plansOf(call)
    expect(plans.length).toBeGreaterThan(0)
    for (const plan of plans) expect(plan).not.toMatch(/Seq Scan on (payments|payment_transitions|api_keys|merchants|partners)\b/)
  })
})
