import { describe, expect, it } from 'vitest'
import { outcomeOf } from './settle.ts'
import type { Watch } from './transfers.ts'

const NOW = new Date('2026-11-25T12:00:00Z')
const DROP_MS = 600_000
const watch = (unminedSince: Date | null = null): Watch => ({
  paymentId: 'pay_1',
  network: 'eip155:31337',
  txHash: `0x${'1'.repeat(64)}`,
  nonce: 4,
  fromBlock: 9n,
  blockNumber: 10n,
  unminedSince,
  transfer: {
    network: 'eip155:31337',
    txHash: `0x${'1'.repeat(64)}`,
    paymentId: 'pay_1',
    merchantId: 'mer_1',
    sender: '0x1111111111111111111111111111111111111111',
    recipient: '0x2222222222222222222222222222222222222222',
    token: '0x3333333333333333333333333333333333333333',
    amount: 1n,
    blockNumber: 10n,
    matchedBy: 'reference',
  },
})

// ADR 23: a processing payment only ever moves forward; anything short of final evidence keeps it waiting.
describe('what a check means for a processing payment', () => {
  it('succeeds only at the required depth', () => {
    expect(outcomeOf(watch(), { status: 'mined', blockNumber: 10n, confirmations: 2n, nonce: 0 }, 3, NOW, DROP_MS)).toEqual({
      kind: 'waiting',
      blockNumber: 10n,
      unminedSince: null,
    })
    expect(outcomeOf(watch(), { status: 'mined', blockNumber: 10n, confirmations: 3n, nonce: 0 }, 3, NOW, DROP_MS)).toEqual({
      kind: 'succeeded',
      blockNumber: 10n,
    })
  })

  it('fails on a revert only at the depth a success would need', () => {
    const shallow = { status: 'reverted' as const, blockNumber: 10n, confirmations: 1n, nonce: 0 }
    expect(outcomeOf(watch(), shallow, 3, NOW, DROP_MS).kind).toBe('waiting')
    expect(outcomeOf(watch(), { ...shallow, confirmations: 3n }, 3, NOW, DROP_MS)).toEqual({
      kind: 'failed',
      reason: 'transaction_reverted',
    })
  })

  it('waits for a missing transaction from when it was first missed, and gives it up after the drop window', () => {
    expect(outcomeOf(watch(), { status: 'unknown' }, 3, NOW, DROP_MS)).toEqual({ kind: 'waiting', blockNumber: null, unminedSince: NOW })
    const missedAt = new Date(NOW.getTime() - DROP_MS + 1)
    expect(outcomeOf(watch(missedAt), { status: 'unknown' }, 3, NOW, DROP_MS)).toEqual({
      kind: 'waiting',
      blockNumber: null,
      unminedSince: missedAt,
    })
    const longAgo = new Date(NOW.getTime() - DROP_MS)
    expect(outcomeOf(watch(longAgo), { status: 'unknown' }, 3, NOW, DROP_MS)).toEqual({ kind: 'failed', reason: 'transaction_dropped' })
  })

  it('never gives up a transaction still in the mempool, and forgets the wait once it is mined', () => {
    const longAgo = new Date(NOW.getTime() - 10 * DROP_MS)
    expect(outcomeOf(watch(longAgo), { status: 'pending', nonce: 4 }, 3, NOW, DROP_MS)).toEqual({
      kind: 'waiting',
      blockNumber: null,
      unminedSince: longAgo,
    })
    expect(outcomeOf(watch(longAgo), { status: 'mined', blockNumber: 12n, confirmations: 1n, nonce: 4 }, 3, NOW, DROP_MS)).toEqual({
      kind: 'waiting',
      blockNumber: 12n,
      unminedSince: null,
    })
  })
})
