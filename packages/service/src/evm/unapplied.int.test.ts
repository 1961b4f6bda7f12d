// Unapplied transfers (issue 23, point 4), on the real database: each transaction is recorded once, whoever
// reports it; a merchant's list is read newest first a page at a time; 0011's late transfers move over.
import { DEFAULT_API_VERSION } from '@till/contract'
import { describe, expect, it } from 'vitest'
import { onServer } from '../../test/database.ts'
import { accountStore } from '../accounts/index.ts'
import { createAccount, useTestDatabase } from '../../test/fixtures.ts'
import { insertPayments } from '../../test/listing-fixtures.ts'
import { randomToken } from '../core/ids.ts'
import { loadMigrations, migrate } from '../db/migrate.ts'
import { openPostgres } from '../db/postgres.ts'
import type { Address } from './ids.ts'
import { evmTransfers } from './transfers.ts'
import { UnappliedCursorError, type UnappliedTransfer, unappliedTransfers } from './unapplied.ts'

const ctx = useTestDatabase()

const NOW = new Date('2026-11-26T12:00:00Z')
const NETWORK = 'eip155:8453'
const BUYER = '0x52908400098527886e0f7030069857d2e4169ee7' as Address
const MERCHANT = '0x8ba1f109551bd432803012645ac136ddd64dba72' as Address
const USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' as Address

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

function unapplied(merchantId: string, overrides: Partial<UnappliedTransfer> = {}): UnappliedTransfer {
  return {
    network: NETWORK,
    txHash: hash(1),
    logIndex: 3,
    merchantId,
    paymentId: null,
    reason: 'no_matching_payment',
    sender: BUYER,
    recipient: MERCHANT,
    token: USDC,
    amount: 69_120_000n,
    blockNumber: 1_000n,
    ...overrides,
  }
}

describe('the unapplied transfers store', () => {
  it('records a transaction once, however its hash is spelt, and says which hashes it has', async () => {
    const { merchantId } = await createAccount(ctx.tdb.db)
    const store = unappliedTransfers(ctx.tdb.db)
    const lower = `0x${'ab'.repeat(32)}`
    const upper = `0x${'AB'.repeat(32)}`
    expect(await store.record(unapplied(merchantId, { txHash: upper }), NOW)).toBe(true)
    expect(await store.record(unapplied(merchantId, { txHash: lower, reason: 'amount_mismatch' }), NOW)).toBe(false)
    expect(await store.recorded(NETWORK, [upper, hash(8)])).toEqual(new Set([lower]))
    expect(await store.recorded('eip155:1', [lower])).toEqual(new Set())
    expect(await store.recorded(NETWORK, [])).toEqual(new Set())
    const { transfers } = await store.page(merchantId, { limit: 10 })
    expect(transfers).toEqual([{ ...unapplied(merchantId, { txHash: lower }), recordedAt: NOW }])
  })

  it('keeps a posted hash not yet mined, and the payment it matched', async () => {
    const account = await createAccount(ctx.tdb.db)
    const [paymentId] = await insertPayments(ctx.tdb.db, [{ ...account, createdAt: NOW.toISOString(), status: 'expired' }])
    const store = unappliedTransfers(ctx.tdb.db)
    const posted = unapplied(account.merchantId, {
      logIndex: null,
      blockNumber: null,
      paymentId: paymentId ?? null,
      reason: 'payment_expired',
    })
    expect(await store.record(posted, NOW)).toBe(true)
    expect((await store.page(account.merchantId, { limit: 1 })).transfers).toEqual([{ ...posted, recordedAt: NOW }])
  })

  it('refuses a transaction that paid a payment, and a payment refuses one recorded as unapplied', async () => {
    const account = await createAccount(ctx.tdb.db)
    const [first, second] = await insertPayments(ctx.tdb.db, [
      { ...account, createdAt: NOW.toISOString(), status: 'pending' },
      { ...account, createdAt: NOW.toISOString(), status: 'pending' },
    ])
    const transfers = evmTransfers(ctx.tdb.db)
    const paying = {
      network: NETWORK,
      merchantId: account.merchantId,
      sender: BUYER,
      recipient: MERCHANT,
      token: USDC,
      amount: 1n,
      blockNumber: null,
      matchedBy: 'reference' as const,
    }
    expect(await transfers.bind({ ...paying, txHash: hash(1), paymentId: first as string }, NOW, 'page')).toBe(true)
    const store = unappliedTransfers(ctx.tdb.db)
    expect(await store.record(unapplied(account.merchantId, { txHash: hash(1) }), NOW)).toBe(false)
    expect(await store.record(unapplied(account.merchantId, { txHash: hash(2) }), NOW)).toBe(true)
    expect(await transfers.bind({ ...paying, txHash: hash(2), paymentId: second as string }, NOW, 'page')).toBe(false)
    // Concurrent claims of one hash from both sides: exactly one lands.
    const claims = await Promise.all([
      ctx.tdb.db.transaction((tx) => evmTransfers(tx).bind({ ...paying, txHash: hash(3), paymentId: second as string }, NOW, 'page')),
      ctx.tdb.db.transaction((tx) => unappliedTransfers(tx).record(unapplied(account.merchantId, { txHash: hash(3) }), NOW)),
    ])
    expect(claims.filter(Boolean)).toHaveLength(1)
  })

  it('pages a merchant’s transfers newest first, ties on the instant in a stable order, without the other merchants’', async () => {
    const { merchantId } = await createAccount(ctx.tdb.db)
    const other = await createAccount(ctx.tdb.db)
    const store = unappliedTransfers(ctx.tdb.db)
    // Seven transfers over five instants a microsecond apart, two pairs sharing one.
    const micros = [1, 2, 2, 3, 4, 4, 5]
    for (const [index, micro] of micros.entries()) {
      await ctx.tdb.db.query(
        `INSERT INTO evm_unapplied_transfers (network, tx_hash, log_index, merchant_id, payment_id, reason, sender, recipient, token, amount,
                                              block_number, recorded_at)
         VALUES ($1, $2, 0, $3, NULL, 'no_matching_payment', $4, $5, $6, 1, 1, $7::timestamptz)`,
        [NETWORK, hash(index + 1), merchantId, BUYER, MERCHANT, USDC, `2026-11-26T12:00:00.00000${micro}Z`],
      )
    }
    await store.record(unapplied(other.merchantId, { txHash: hash(99) }), NOW)

    const seen: string[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const page = await store.page(merchantId, { limit: 3, ...(cursor === undefined ? {} : { cursor }) })
      seen.push(...page.transfers.map((transfer) => transfer.txHash))
      cursor = page.nextCursor ?? undefined
      pages += 1
    } while (cursor !== undefined)
    expect(pages).toBe(3)
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1].map(hash))
    // A page that ends the list exactly says so.
    expect((await store.page(merchantId, { limit: 7 })).nextCursor).toBeNull()
  })

  it('refuses a cursor it did not issue', async () => {
    const { merchantId } = await createAccount(ctx.tdb.db)
    const store = unappliedTransfers(ctx.tdb.db)
    for (const cursor of ['nope', Buffer.from('["x","y","z"]').toString('base64url'), Buffer.from('{}').toString('base64url')]) {
      await expect(store.page(merchantId, { limit: 1, cursor })).rejects.toBeInstanceOf(UnappliedCursorError)
    }
  })
})

describe('migration 0014', () => {
  it('moves 0011’s late transfers over, with the reason their payment’s status gives, and drops the column', async () => {
    const migrations = await loadMigrations()
    const before = migrations.filter((migration) => migration.name < '0014')
    const rest = migrations.filter((migration) => migration.name >= '0014')
    const name = `test_${randomToken(8)}`
    const admin = new URL(ctx.tdb.url)
    await onServer(admin.href, (client) => client.query(`CREATE DATABASE ${name}`))
    const url = new URL(admin)
    url.pathname = `/${name}`
    const db = await openPostgres({ url: url.href, max: 2 })
    try {
      await migrate(db, before)
      // A partner and a merchant as the schema before 0014 holds them: no API key, whose table changed since.
      const accounts = accountStore(db)
      const partner = await accounts.createPartner({ name: 'Partner', pinnedVersion: DEFAULT_API_VERSION, now: NOW })
      const merchant = await accounts.createMerchant({ partnerId: partner.id, name: 'Shop', email: 'shop@example.com', now: NOW })
      const account = { partnerId: partner.id, merchantId: merchant.id }
      const [expired, paid, paying] = await insertPayments(db, [
        { ...account, createdAt: NOW.toISOString(), status: 'expired' },
        { ...account, createdAt: NOW.toISOString(), status: 'succeeded' },
        { ...account, createdAt: NOW.toISOString(), status: 'processing' },
      ])
      const row = (txHash: string, paymentId: string | undefined, late: boolean) =>
        db.query(
          `INSERT INTO evm_transfers (network, tx_hash, payment_id, merchant_id, late, sender, recipient, token, amount, block_number, recorded_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 5, NULL, $9)`,
          [NETWORK, txHash, paymentId ?? null, account.merchantId, late, BUYER, MERCHANT, USDC, NOW],
        )
      await row(hash(1), expired, true)
      await row(hash(2), paid, true)
      await row(hash(3), paying, false)

      expect(await migrate(db, rest)).toEqual(rest.map((migration) => migration.name))
      const moved = await db.query<{ tx_hash: string; payment_id: string; reason: string; log_index: number | null }>(
        'SELECT tx_hash, payment_id, reason, log_index FROM evm_unapplied_transfers ORDER BY tx_hash',
      )
      expect(moved).toEqual([
        { tx_hash: hash(1), payment_id: expired, reason: 'payment_expired', log_index: null },
        { tx_hash: hash(2), payment_id: paid, reason: 'payment_already_paid', log_index: null },
      ])
      expect(await db.query('SELECT tx_hash FROM evm_transfers')).toEqual([{ tx_hash: hash(3) }])
      expect(
        await db.query("SELECT 1 FROM information_schema.columns WHERE table_name = 'evm_transfers' AND column_name = 'late'"),
      ).toEqual([])
      // Moving them announced nothing: no endpoint could have asked for an event that did not exist.
      expect(await db.query('SELECT id FROM webhook_events')).toEqual([])
    } finally {
      await db.close()
      await onServer(admin.href, (client) => client.query(`DROP DATABASE ${name} WITH (FORCE)`))
    }
  })
})
