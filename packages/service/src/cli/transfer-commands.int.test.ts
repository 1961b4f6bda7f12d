// `till transfers unapplied`: what the operator hands a merchant to refund, a hundred at a time.
import { describe, expect, it } from 'vitest'
import { createAccount, useTestDatabase } from '../../test/fixtures.ts'
import { insertPayments } from '../../test/listing-fixtures.ts'
import type { Address } from '../evm/ids.ts'
import { unappliedTransfers } from '../evm/unapplied.ts'
import { adminCommandRunner } from './admin-command.test-helper.ts'

const ctx = useTestDatabase()
const till = adminCommandRunner(ctx)

const BUYER = '0x52908400098527886e0f7030069857d2e4169ee7' as Address
const SHOP = '0x8ba1f109551bd432803012645ac136ddd64dba72' as Address
const USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' as Address
const START = Date.parse('2026-11-26T12:00:00Z')
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

describe('till transfers unapplied', () => {
  it('prints each transfer with its reason and payment, newest first, and where to continue', async () => {
    const account = await createAccount(ctx.tdb.db)
    const [paymentId] = await insertPayments(ctx.tdb.db, [{ ...account, createdAt: new Date(START).toISOString(), status: 'expired' }])
    const store = unappliedTransfers(ctx.tdb.db)
    for (let n = 1; n <= 101; n++) {
      await store.record(
        {
          network: 'eip155:8453',
          txHash: hash(n),
          logIndex: n === 1 ? null : n,
          merchantId: account.merchantId,
          paymentId: n === 1 ? (paymentId ?? null) : null,
          reason: n === 1 ? 'payment_expired' : 'no_matching_payment',
          sender: BUYER,
          recipient: SHOP,
          token: USDC,
          amount: BigInt(n) * 1_000_000n,
          blockNumber: null,
        },
        new Date(START + n * 1_000),
      )
    }
    const first = (await till('transfers unapplied', '--merchant', account.merchantId)).split('\n')
    expect(first).toHaveLength(101)
    expect(first[0]).toBe(
      `2026-11-26T12:01:41.000Z  no_matching_payment  (no payment)  101000000 of eip155:8453/erc20:${USDC} from ${BUYER}  (eip155:8453 ${hash(101)})`,
    )
    const more = first[100] ?? ''
    expect(more).toMatch(new RegExp(`^More: till transfers unapplied --merchant ${account.merchantId} --cursor \\S+$`))
    const cursor = more.split(' ').at(-1) ?? ''
    expect(await till('transfers unapplied', '--merchant', account.merchantId, '--cursor', cursor)).toBe(
      `2026-11-26T12:00:01.000Z  payment_expired  ${paymentId}  1000000 of eip155:8453/erc20:${USDC} from ${BUYER}  (eip155:8453 ${hash(1)})`,
    )
    const json = JSON.parse(await till('transfers unapplied', '--merchant', account.merchantId, '--cursor', cursor, '--json'))
    expect(json).toEqual({
      merchantId: account.merchantId,
      transfers: [
        {
          reason: 'payment_expired',
          paymentId,
          network: 'eip155:8453',
          txHash: hash(1),
          logIndex: null,
          from: BUYER,
          to: SHOP,
          token: `eip155:8453/erc20:${USDC}`,
          amount: '1000000',
          recordedAt: '2026-11-26T12:00:01.000Z',
        },
      ],
      nextCursor: null,
    })
  })

  it('says when there are none, and refuses a cursor it did not print', async () => {
    const account = await createAccount(ctx.tdb.db)
    expect(await till('transfers unapplied', '--merchant', account.merchantId)).toBe('No unapplied transfers.')
    await expect(till('transfers unapplied', '--merchant', account.merchantId, '--cursor', 'nope')).rejects.toThrow(
      '--cursor must be one this command printed.',
    )
  })
})
