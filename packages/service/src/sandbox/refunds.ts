// Sandbox refunds (issue 24): no chain, as with sandbox payments. The pay page's test wallets, and the sandbox
// simulate call, play the merchant's wallet: the refund is submitted with a made-up transaction and ends at
// once, through the same compare-and-set steps as a refund on a real network.
import type { RefundOutcome } from '@till/contract'
import { randomBytes } from 'node:crypto'
import type { Clock } from '../core/clock.ts'
import type { Database } from '../db/port.ts'
import { ApiError, fieldError } from '../errors.ts'
import { checksumAddress } from '../evm/index.ts'
import { type RefundRail, type RefundRecord, refundStore } from '../refunds/index.ts'
import { SANDBOX_OPTIONS } from './chain-data.ts'

/** The pay page's test wallets for a refund, like test card numbers: each always ends it the same way. */
export const REFUND_TEST_WALLETS = [
  { id: 'sandbox_pays', name: 'Test Wallet: Pays', outcome: 'succeeded' },
  { id: 'sandbox_reverts', name: 'Test Wallet: Reverts', outcome: 'failed' },
] as const satisfies readonly { id: string; name: string; outcome: RefundOutcome }[]

const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`

export type SandboxRefunds = RefundRail & {
  /** Pays the refund as a test wallet would: a destination (a test account, when it has none), then its outcome. */
  pay(refund: RefundRecord, outcome: RefundOutcome): Promise<RefundRecord>
}

export function sandboxRefunds(deps: { db: Database; clock: Clock }): SandboxRefunds {
  const store = refundStore(deps.db)
  const notPayable = (status: string) =>
    new ApiError('refund_not_payable', `This refund is ${status}: it is not waiting to be paid.`, { details: { status } })

  return {
    name: 'sandbox',
    testWallets: REFUND_TEST_WALLETS,
    token(network, tokenUnit) {
      const option = SANDBOX_OPTIONS.find((candidate) => candidate.network.caip2 === network && candidate.token.caip19 === tokenUnit)
      return option && { symbol: option.token.symbol, name: option.token.name, decimals: option.token.decimals }
    },
    async checkTransaction() {
      throw fieldError(
        'transactionHash',
        'cannot be checked in the sandbox, which has no chain: pay the refund with a test wallet on its pay page, or with POST /v1/sandbox/refunds/{refundId}/simulate',
      )
    },
    nudge() {},
    async pay(refund, outcome) {
      let current = refund
      if (current.status === 'awaiting_destination') {
        const destination = `${refund.network}:${checksumAddress(hex(20))}`
        current =
          (await store.move({
            id: refund.id,
            to: 'ready',
            from: ['awaiting_destination'],
            now: deps.clock.now(),
            change: { destination },
          })) ?? current
      }
      if (current.status !== 'ready') throw notPayable(current.status)
      const merchantWallet = `${refund.network}:${checksumAddress(hex(20))}`
      const submitted = await store.move({
        id: refund.id,
        to: 'submitted',
        from: ['ready'],
        now: deps.clock.now(),
        change: { transaction: { hash: hex(32), from: merchantWallet, matchedBy: 'reference' } },
      })
      if (!submitted) throw notPayable((await store.findById(refund.id))?.status ?? refund.status)
      const ended = await store.move({ id: refund.id, to: outcome, from: ['submitted'], now: deps.clock.now() })
      return ended ?? submitted
    },
  }
}
