import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCheckoutPayment, gatewayCall } from '../../test/checkout-fixtures.ts'
import { HAND_TIMING, handWatcher, plainTransfer, receiveOnLocalChain, transfer, useLocalChain } from '../../test/evm-fixtures.ts'
import { createAccount, testClock, useTestApp, type Account, type TestAppOptions } from '../../test/fixtures.ts'
import { limitedRpc } from '../../test/limited-rpc.ts'
import { paymentStore } from '../payments/store.ts'
import type { EvmConfig } from './config.ts'
import { watchCursors } from './watch-cursors.ts'

// What a watcher must survive: other instances, a crash mid-range, an RPC that limits its ranges, and many
// merchants with open payments. All on a real anvil chain.
const chain = useLocalChain(1)
const clock = testClock()
const options: TestAppOptions = { clock }
beforeAll(() => {
  options.evm = { config: chain.config, timing: HAND_TIMING }
})
const ctx = useTestApp(options)
const NETWORK = 'eip155:31337'
// A watcher that stops renewing its lease hands the network over after this long (watcher.ts).
const LEASE_MS = 60_000

let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
  await receiveOnLocalChain(ctx.tdb.db, account)
  // Whatever earlier tests left on chain is behind the cursor, which this instance then releases.
  const first = handWatcher(ctx.tdb.db, clock, chain.config)
  await chain.clients.test.mine({ blocks: 1 })
  await first.runOnce()
  await first.stop()
})

/** Payments whose pages the buyer opened, each with its own exact amount. */
async function openPayments(count: number) {
  const opened: { paymentId: string; amount: bigint }[] = []
  for (let index = 0; index < count; index++) {
    const created = await createCheckoutPayment(ctx.app, account, { amount: { unit: 'iso4217/EUR', value: '1999' } })
    const answer = await gatewayCall(ctx.app, created, '/options')
    const [option] = (answer.json() as { options: { tokenAmount: { value: string } }[] }).options
    opened.push({ paymentId: created.paymentId, amount: BigInt(option?.tokenAmount.value ?? '0') })
  }
  return opened
}

async function statuses(ids: readonly string[]) {
  return Promise.all(ids.map(async (id) => (await paymentStore(ctx.tdb.db).findById(id))?.status))
}

async function transitionCounts(ids: readonly string[]): Promise<number[]> {
  const rows = await ctx.tdb.db.query<{ payment_id: string; count: string }>(
    'SELECT payment_id, count(*)::text AS count FROM payment_transitions WHERE payment_id = ANY ($1::text[]) GROUP BY payment_id',
    [ids],
  )
  return ids.map((id) => Number(rows.find((row) => row.payment_id === id)?.count ?? 0))
}

const withRpc = (config: EvmConfig, rpcUrl: string, maxLogRange?: number): EvmConfig => ({
  ...config,
  networks: config.networks.map((network) => ({ ...network, rpcUrl, maxLogRange: maxLogRange ?? network.maxLogRange })),
})

describe('several instances', () => {
  it('match each transfer once: the instance holding the lease reads, the other waits', async () => {
    const opened = await openPayments(4)
    for (const { paymentId, amount } of opened) await transfer(chain, { paymentId, amount })
    const [one, two] = [handWatcher(ctx.tdb.db, clock, chain.config), handWatcher(ctx.tdb.db, clock, chain.config)]
    const read = await Promise.all([one.runOnce(), two.runOnce()])
    // Exactly one of them read the blocks.
    expect(read.filter((blocks) => blocks > 0n)).toHaveLength(1)
    const ids = opened.map((payment) => payment.paymentId)
    expect(await statuses(ids)).toEqual(['processing', 'processing', 'processing', 'processing'])
    expect(await transitionCounts(ids)).toEqual([2, 2, 2, 2])
  })

  it('hand over at once when the holder stops, and when its lease runs out', async () => {
    const one = handWatcher(ctx.tdb.db, clock, chain.config)
    const two = handWatcher(ctx.tdb.db, clock, chain.config)
    await one.runOnce()
    const [first] = await openPayments(1)
    await plainTransfer(chain, { amount: first?.amount ?? 0n })
    expect(await two.runOnce()).toBe(0n)
    await one.stop()
    expect(await two.runOnce()).toBeGreaterThan(0n)
    expect(await statuses([first?.paymentId ?? ''])).toEqual(['processing'])

    // The second now holds it and "crashes" (never renews): a third takes over once the lease has run out.
    const [second] = await openPayments(1)
    await plainTransfer(chain, { amount: second?.amount ?? 0n })
    const three = handWatcher(ctx.tdb.db, clock, chain.config)
    expect(await three.runOnce()).toBe(0n)
    clock.advance(LEASE_MS)
    expect(await three.runOnce()).toBeGreaterThan(0n)
    expect(await statuses([second?.paymentId ?? ''])).toEqual(['processing'])
  })
})

describe('a crash in the middle of a range', () => {
  it('misses no transfer: the restarted watcher reads the range again from the cursor', async () => {
    const opened = await openPayments(3)
    const from = await watchCursors(ctx.tdb.db).position(NETWORK)
    for (const { paymentId, amount } of opened) await transfer(chain, { paymentId, amount })
    // Ranges of one block, each transfer in its own: the process dies right after the first payment's claim
    // commits, before the cursor moves past its block, and never reads the others.
    const dying = handWatcher(ctx.tdb.db, clock, withRpc(chain.config, chain.anvil.url, 1), {
      claimed() {
        throw new Error('killed')
      },
    })
    await dying.runOnce()
    const ids = opened.map((payment) => payment.paymentId)
    expect(await statuses(ids)).toEqual(['processing', 'pending', 'pending'])
    expect(await watchCursors(ctx.tdb.db).position(NETWORK)).toBe(from)

    clock.advance(LEASE_MS)
    await handWatcher(ctx.tdb.db, clock, chain.config).runOnce()
    expect(await statuses(ids)).toEqual(['processing', 'processing', 'processing'])
    expect(await transitionCounts(ids)).toEqual([2, 2, 2])
  })
})

describe('an RPC that refuses ranges over 3 blocks', () => {
  let rpc: Awaited<ReturnType<typeof limitedRpc>>
  beforeEach(async () => {
    rpc = await limitedRpc(chain.anvil.url, 3)
  })
  afterEach(() => rpc.close())

  it('is asked for halved ranges, and nothing is missed', async () => {
    const opened = await openPayments(3)
    for (const { paymentId, amount } of opened) {
      await transfer(chain, { paymentId, amount })
      await chain.clients.test.mine({ blocks: 4 })
    }
    const watcher = handWatcher(ctx.tdb.db, clock, withRpc(chain.config, rpc.url, 1000))
    clock.advance(LEASE_MS)
    await watcher.runOnce()
    expect(await statuses(opened.map((payment) => payment.paymentId))).toEqual(['processing', 'processing', 'processing'])
    expect(rpc.seen.refused).toBeGreaterThan(0)
    expect(rpc.seen.ranges.every(([from, to]) => to - from + 1n <= 3n)).toBe(true)
  })
})

describe('1,000 merchants with open payments', () => {
  it('reads only the transactions of transfers to their addresses, however many merchants there are', async () => {
    const token = chain.config.tokens[0]?.id ?? ''
    const now = clock.now()
    // 1,000 merchants, each with an open payment quoted to its own address.
    await ctx.tdb.db.query(
      `WITH m AS (
         INSERT INTO merchants (id, partner_id, name, email, created_at, updated_at)
         SELECT 'mer_many' || i, $1, 'Shop ' || i, 'shop' || i || '@example.com', $2, $2 FROM generate_series(1, 1000) i
         RETURNING id
       ), p AS (
         INSERT INTO payments (id, merchant_id, partner_id, reference_id, currency, fiat_exponent, amount_minor, redirect_enabled,
                               status, created_at, updated_at, expires_at)
         SELECT 'pay_' || lpad(substr(id, 9), 32, '0'), id, $1, 'order-' || id, 'EUR', 2, 1999, false, 'pending', $2, $2,
                $2::timestamptz + interval '15 minutes'
           FROM m
         RETURNING id, merchant_id
       ), q AS (
         INSERT INTO payment_quotes (payment_id, option_id, network, token, token_minor, rate, rate_source, recipient, unique_amount,
                                     created_at, reference, watch_until)
         SELECT id, 'usdc-31337', $3, $4, 21673158, '1.0842', 'fixed', '0x' || lpad(substr(merchant_id, 9), 40, 'a'), true, $2,
                '0x' || md5(id), $2::timestamptz + interval '1 day'
           FROM p
         RETURNING payment_id, recipient
       )
       INSERT INTO quote_amount_slots (network, token, recipient, token_minor, payment_id, held_until)
       SELECT $3, $4, recipient, 21673158, payment_id, $2::timestamptz + interval '1 day' FROM q`,
      [account.partnerId, now, NETWORK, token],
    )
    const paid = [7, 450, 999].map((i) => ({
      id: `pay_${String(i).padStart(32, '0')}`,
      to: `0x${String(i).padStart(40, 'a')}` as const,
    }))
    for (const { to } of paid) await plainTransfer(chain, { amount: 21_673_158n, to })
    // Transfers to addresses no payment is quoted to: the watcher never asks about their transactions.
    for (let i = 0; i < 5; i++) await plainTransfer(chain, { amount: 1_000_000n, to: `0x${String(i).padStart(40, 'b')}` })

    const rpc = await limitedRpc(chain.anvil.url, 1000)
    try {
      clock.advance(LEASE_MS)
      await handWatcher(ctx.tdb.db, clock, withRpc(chain.config, rpc.url)).runOnce()
      expect(await statuses(paid.map((payment) => payment.id))).toEqual(['processing', 'processing', 'processing'])
      expect(rpc.seen.calls.eth_getTransactionByHash).toBe(paid.length)
      expect(rpc.seen.calls.eth_getLogs).toBe(1)
    } finally {
      await rpc.close()
    }
  })
})
