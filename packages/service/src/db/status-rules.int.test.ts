// The database's own status rules, read back from the live catalog of a migrated database, agree with the
// contract's status vocabulary (@till/contract statuses.ts): the CHECK on payments.status, the transition
// trigger, and every trigger condition and index predicate that names statuses. A migration that writes
// a list of its own, or a vocabulary change without its migration, fails here.
import {
  FINAL_STATUSES,
  HOLDING_REFUND_STATUSES,
  MERCHANT_STATUSES,
  type MerchantPaymentStatus,
  OPEN_STATUSES,
  REFUND_STATUSES,
  REFUND_TRANSITIONS,
  TRANSITIONS,
} from '@till/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase, type TestDatabase } from '../../test/database.ts'
import { REFERENCE_HOLDING } from '../payments/store.ts'

let tdb: TestDatabase
beforeAll(async () => {
  tdb = await openTestDatabase()
})
afterAll(() => tdb.close())

/** The quoted values of the first `status IN (…)` or `status = '…'` in a definition, in their order. */
function statusesIn(definition: string, subject = 'status'): string[] {
  const list = new RegExp(`${subject}\\)? (?:IN \\(|= ANY \\(ARRAY\\[)([^\\])]*)`, 'i').exec(definition)?.[1]
  const single = new RegExp(`${subject}\\)? = '([a-z_]+)'`, 'i').exec(definition)?.[1]
  if (list) return [...list.matchAll(/'([a-z_]+)'/g)].map((match) => match[1] ?? '')
  return single ? [single] : []
}

const sorted = (values: readonly string[]) => [...values].sort()

async function one(sql: string, params: string[]): Promise<string> {
  const [row] = await tdb.db.query<{ definition: string }>(sql, params)
  if (!row) throw new Error(`nothing found for ${params.join(', ')}`)
  return row.definition
}

const triggerWhen = (name: string) => one('SELECT pg_get_triggerdef(oid) AS definition FROM pg_trigger WHERE tgname = $1', [name])
const indexPredicate = (name: string) => one('SELECT pg_get_indexdef($1::regclass) AS definition', [name])

describe('the database and the status vocabulary', () => {
  it("payments.status's CHECK allows exactly the merchant view's statuses", async () => {
    const checks = await tdb.db.query<{ definition: string }>(
      "SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = 'payments'::regclass AND contype = 'c'",
    )
    const check = checks.map((row) => row.definition).find((definition) => /\(status\b/.test(definition))
    expect(sorted(statusesIn(check ?? ''))).toEqual(sorted(MERCHANT_STATUSES))
  })

  it('the transition trigger allows exactly the contract’s transitions', async () => {
    const source = await one("SELECT pg_get_functiondef('payments_guard_transition'::regproc) AS definition", [])
    const allowed: Record<string, string[]> = {}
    for (const match of source.matchAll(/OLD\.status = '([a-z_]+)' AND NEW\.status IN \(([^)]*)\)/g)) {
      allowed[match[1] ?? ''] = [...(match[2] ?? '').matchAll(/'([a-z_]+)'/g)].map((value) => value[1] ?? '')
    }
    const expected = Object.fromEntries(
      MERCHANT_STATUSES.filter((from) => TRANSITIONS[from].length > 0).map((from) => [from, [...TRANSITIONS[from]]]),
    )
    expect(allowed).toEqual(expected)
  })

  it('a referenceId is held by the statuses the store says, in the index that enforces it', async () => {
    expect(sorted(statusesIn(await indexPredicate('payments_live_reference')))).toEqual(sorted(REFERENCE_HOLDING))
  })

  it("the customer sets take a payment's buyer when it is final, and count open ones apart", async () => {
    for (const trigger of ['payments_customer_insert', 'payments_customer_update']) {
      expect(sorted(statusesIn(await triggerWhen(trigger), 'new.status')), trigger).toEqual(sorted(FINAL_STATUSES))
    }
    expect(sorted(statusesIn(await indexPredicate('payments_open_buyers')))).toEqual(sorted(OPEN_STATUSES))
    // The bulk rebuild takes the same payments as the triggers.
    const rebuild = await one("SELECT pg_get_functiondef('rebuild_customer_sets'::regproc) AS definition", [])
    expect(sorted(statusesIn(rebuild, 'p.status'))).toEqual(sorted(FINAL_STATUSES))
  })

  it('a webhook event is written for every status a payment can move to', async () => {
    const reachable = new Set<MerchantPaymentStatus>(MERCHANT_STATUSES.flatMap((from) => TRANSITIONS[from]))
    expect(sorted(statusesIn(await triggerWhen('payments_webhook_event'), 'new.status'))).toEqual(sorted([...reachable]))
  })

  it('the expiry sweeper’s index holds the status a payment expires from', async () => {
    const expiresFrom = MERCHANT_STATUSES.filter((from) => (TRANSITIONS[from] as readonly string[]).includes('expired'))
    expect(statusesIn(await indexPredicate('payments_pending_deadline'))).toEqual(expiresFrom)
  })
})

describe('the database and the refund statuses', () => {
  it("refunds.status's CHECK allows exactly the contract's refund statuses", async () => {
    const checks = await tdb.db.query<{ definition: string }>(
      "SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = 'refunds'::regclass AND conname = 'refunds_status_check'",
    )
    expect(sorted(statusesIn(checks[0]?.definition ?? ''))).toEqual(sorted(REFUND_STATUSES))
  })

  it('the refund transition trigger allows exactly the contract’s refund transitions', async () => {
    const source = await one("SELECT pg_get_functiondef('refunds_guard_transition'::regproc) AS definition", [])
    const allowed: Record<string, string[]> = {}
    for (const match of source.matchAll(/OLD\.status = '([a-z_]+)' AND NEW\.status IN \(([^)]*)\)/g)) {
      allowed[match[1] ?? ''] = [...(match[2] ?? '').matchAll(/'([a-z_]+)'/g)].map((value) => value[1] ?? '')
    }
    const expected = Object.fromEntries(
      REFUND_STATUSES.filter((from) => REFUND_TRANSITIONS[from].length > 0).map((from) => [from, [...REFUND_TRANSITIONS[from]]]),
    )
    expect(allowed).toEqual(expected)
  })

  it('a refund holds part of its payment in exactly the statuses the contract says', async () => {
    const source = await one("SELECT pg_get_functiondef('refunds_hold_payment'::regproc) AS definition", [])
    expect(sorted(statusesIn(source, 'NEW.status'))).toEqual(sorted(HOLDING_REFUND_STATUSES))
    expect(sorted(statusesIn(await indexPredicate('refunds_unapplied_holding')))).toEqual(sorted(HOLDING_REFUND_STATUSES))
  })
})
