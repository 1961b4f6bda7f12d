import { beforeEach, describe, expect, it } from 'vitest'
import { HAND_TIMING, handFollower, payOnLocalChain, receiveOnLocalChain, useLocalChain } from '../../test/evm-fixtures.ts'
import { createAccount, testApp, testClock, useTestDatabase, type Account } from '../../test/fixtures.ts'
import { paymentTimeline } from '../dashboard/timeline.ts'
import { paymentStore } from '../payments/store.ts'
import { evmTransfers } from './transfers.ts'

// The watch list is in the database: what one process started following, another finishes.
const chain = useLocalChain(2)
const ctx = useTestDatabase()
const clock = testClock()
let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
  await receiveOnLocalChain(ctx.tdb.db, account)
})
// 19.99 EUR at 1.0842 USDC per EUR, the local chain's configured rate.
const QUOTED = 21_673_158n

/** A Till instance on the shared database, as a restarted process would be. */
const instance = () => testApp(ctx.tdb.db, { clock, evm: { config: chain.config, timing: HAND_TIMING } })

async function processingPayment(app: Awaited<ReturnType<typeof instance>>): Promise<string> {
  const { paymentId, amount } = await payOnLocalChain(app, chain, account)
  // Each payment to the merchant is quoted its own exact amount (amount-slots.ts): 21.673158 USDC and up.
  expect(amount - QUOTED).toBeGreaterThanOrEqual(0n)
  return paymentId
}

const statusOf = async (id: string) => (await paymentStore(ctx.tdb.db).findById(id))?.status

describe('following confirmations', () => {
  it('resumes after a restart: a payment submitted before it succeeds after it', async () => {
    const before = await instance()
    const id = await processingPayment(before)
    await before.close()

    await chain.clients.test.mine({ blocks: 1 })
    // A new process: nothing of the old one survives but the database.
    await handFollower(ctx.tdb.db, clock, chain.config).runOnce()
    expect(await statusOf(id)).toBe('succeeded')
    expect(await evmTransfers(ctx.tdb.db).watching()).toBe(0)
  })

  it('records each count of confirmations it sees, up to the network’s, for the payment’s dashboard page', async () => {
    const app = await instance()
    try {
      const id = await processingPayment(app)
      const follower = handFollower(ctx.tdb.db, clock, chain.config)
      await follower.runOnce()
      expect(await statusOf(id)).toBe('processing')
      await chain.clients.test.mine({ blocks: 3 })
      await follower.runOnce()
      expect(await statusOf(id)).toBe('succeeded')
      const milestones = (await paymentTimeline(ctx.tdb.db, id)).flatMap((entry) =>
        entry.kind === 'confirmations' ? [`${entry.confirmations} of ${entry.required}`] : [],
      )
      expect(milestones).toEqual(['1 of 2', '2 of 2'])
    } finally {
      await app.close()
    }
  })

  it('splits the watch list: a watch another instance holds is skipped, not waited for', async () => {
    const app = await instance()
    try {
      const ids = [await processingPayment(app), await processingPayment(app)]
      const leaseUntil = new Date(clock.now().getTime() + 60_000)
      await ctx.tdb.db.transaction(async (tx) => {
        const [held] = await evmTransfers(tx).lease(clock.now(), leaseUntil, 1)
        // Another instance, on another connection, while the first still holds its row.
        const other = await evmTransfers(ctx.tdb.db).lease(clock.now(), leaseUntil, 2)
        expect(other.map((watch) => watch.paymentId)).toEqual(ids.filter((id) => id !== held?.paymentId))
      })
    } finally {
      await app.close()
    }
  })

  it('takes over a crashed instance’s watches when its lease runs out', async () => {
    const app = await instance()
    try {
      const ids = [await processingPayment(app), await processingPayment(app)]
      const store = evmTransfers(ctx.tdb.db)
      const leaseUntil = new Date(clock.now().getTime() + 60_000)
      expect(await store.lease(clock.now(), leaseUntil, 10)).toHaveLength(2)
      // Leased, never checked (the instance "crashed"): nothing is due until the leases run out.
      expect(await store.lease(clock.now(), leaseUntil, 10)).toEqual([])

      await chain.clients.test.mine({ blocks: 1 })
      clock.advance(60_000)
      await handFollower(ctx.tdb.db, clock, chain.config).runOnce()
      expect([await statusOf(ids[0] ?? ''), await statusOf(ids[1] ?? '')]).toEqual(['succeeded', 'succeeded'])
    } finally {
      await app.close()
    }
  })
})
