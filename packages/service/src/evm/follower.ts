import type { FastifyBaseLogger } from 'fastify'
import type { Hash } from 'viem'
import type { Database } from '../db/port.ts'
import type { Clock } from '../domain/clock.ts'
import { periodic } from '../domain/periodic.ts'
import { ApiError } from '../errors.ts'
import type { PaymentService } from '../payments/service.ts'
import type { EvmChains } from './chains.ts'
import { evmTransfers, type Watch } from './transfers.ts'
import { paymentReference } from './reference.ts'
import { checkTransfer, type TransferCheck } from './verify.ts'

export type FollowerTiming = {
  /** How often due watches are checked; 0 leaves it to `runOnce` (tests) and to submissions' nudges. */
  intervalMs: number
  /** How long after a check the same transaction is checked again. */
  recheckMs: number
  /**
   * How long a transaction may stay missing (dropped from the mempool, or reorganised out and not mined
   * again) before its payment fails; until then the payment stays processing and waits for it (ADR 23).
   */
  dropAfterMs: number
}

// A lease outlives any one round of checks; a crashed instance's watches come due again when it runs out.
const LEASE_MS = 60_000
const BATCH = 20

type Outcome =
  | { kind: 'succeeded'; blockNumber: bigint }
  | { kind: 'failed'; reason: 'transaction_reverted' | 'transaction_dropped' | 'transaction_invalid' }
  | { kind: 'waiting'; blockNumber: bigint | null; lostSince: Date | null }

/** What a check means for a processing payment (ADR 23): monotonic, so a reorg only ever sends it back to waiting. */
export function outcomeOf(watch: Watch, check: TransferCheck, required: number, now: Date, dropAfterMs: number): Outcome {
  switch (check.status) {
    case 'mined':
      return check.confirmations >= BigInt(required)
        ? { kind: 'succeeded', blockNumber: check.blockNumber }
        : { kind: 'waiting', blockNumber: check.blockNumber, lostSince: null }
    case 'reverted':
      return check.confirmations >= BigInt(required)
        ? { kind: 'failed', reason: 'transaction_reverted' }
        : { kind: 'waiting', blockNumber: check.blockNumber, lostSince: null }
    case 'pending':
      return { kind: 'waiting', blockNumber: null, lostSince: null }
    case 'unknown': {
      const lostSince = watch.lostSince ?? now
      return now.getTime() - lostSince.getTime() >= dropAfterMs
        ? { kind: 'failed', reason: 'transaction_dropped' }
        : { kind: 'waiting', blockNumber: null, lostSince }
    }
    case 'refused':
      // The hash fixes what the transaction does, and it checked out on submission: only an RPC that
      // answered wrongly then, or now, gets here. Waiting would not change a mined transaction.
      return { kind: 'failed', reason: 'transaction_invalid' }
  }
}

/**
 * Follows processing payments' transactions until they have their network's confirmations. The watch
 * list is in the database: a restart finds it again, and instances split it by lease (SKIP LOCKED).
 */
export function evmFollower(deps: {
  db: Database
  payments: PaymentService
  chains: EvmChains
  clock: Clock
  log: FastifyBaseLogger
  timing: FollowerTiming
}) {
  const watches = evmTransfers(deps.db)

  async function settle(watch: Watch): Promise<void> {
    const network = deps.chains.network(watch.network)
    if (!network) {
      deps.log.warn({ paymentId: watch.paymentId, network: watch.network }, 'a followed payment is on a network no longer configured')
      return
    }
    const payment = await deps.payments.readForCheckout(watch.paymentId)
    if (payment?.status !== 'processing') {
      await watches.unwatch(watch.paymentId)
      return
    }
    const { transfer } = watch
    const check = await checkTransfer(deps.chains.client(network.id), watch.txHash as Hash, {
      chainId: network.chainId,
      token: transfer.token,
      from: transfer.sender,
      to: transfer.recipient,
      amount: transfer.amount,
      notBefore: payment.createdAt,
      reference: paymentReference(payment.id),
    })
    const now = deps.clock.now()
    const outcome = outcomeOf(watch, check, network.confirmations, now, deps.timing.dropAfterMs)
    if (outcome.kind === 'waiting') {
      if (outcome.lostSince && !watch.lostSince)
        deps.log.warn({ paymentId: payment.id, txHash: watch.txHash }, 'a followed transaction is missing')
      await watches.reschedule({ paymentId: payment.id, ...outcome, next: new Date(now.getTime() + deps.timing.recheckMs) })
      return
    }
    const paid = payment.paid
    if (!paid) throw new Error(`payment ${payment.id} is processing without transaction details`)
    try {
      await deps.payments.atomically(async ({ transition, tx }) => {
        await evmTransfers(tx).unwatch(payment.id)
        if (outcome.kind === 'succeeded') {
          // The transfer went straight to the merchant: it is the settlement, with no fee taken.
          const settlement = { settled: true as const, amountMinor: payment.amountMinor, txHash: watch.txHash, settledAt: now }
          await transition({ payment, to: 'succeeded', reason: 'transaction_confirmed', paid: { ...paid, settlement } })
        } else {
          await transition({ payment, to: 'failed', reason: outcome.reason })
        }
      })
    } catch (error) {
      // Moved on meanwhile (another instance's check): nothing is left to follow.
      if (!(error instanceof ApiError && error.code === 'invalid_transition')) throw error
    }
  }

  /** Checks every watch due now, batch by batch; resolves with how many it checked. */
  async function runOnce(): Promise<number> {
    let checked = 0
    for (;;) {
      const now = deps.clock.now()
      const due = await watches.lease(now, new Date(now.getTime() + LEASE_MS), BATCH)
      for (const watch of due) {
        try {
          await settle(watch)
        } catch (error) {
          // The RPC failed or timed out: the lease brings the watch back later.
          deps.log.warn({ err: error, paymentId: watch.paymentId }, 'checking a transaction failed; it is checked again later')
        }
      }
      checked += due.length
      if (due.length < BATCH) return checked
    }
  }

  const timer =
    deps.timing.intervalMs > 0
      ? periodic({
          intervalMs: deps.timing.intervalMs,
          run: async () => {
            await runOnce()
          },
          onError: (error) => deps.log.error({ err: error }, 'following transactions failed; retrying at the next tick'),
        })
      : undefined

  let nudged: Promise<unknown> | undefined
  return {
    runOnce,
    /** A transaction was just submitted: check now rather than at the next tick (when ticking at all). */
    nudge() {
      if (!timer) return
      nudged ??= runOnce()
        .catch((error: unknown) => deps.log.error({ err: error }, 'following transactions failed; retrying at the next tick'))
        .finally(() => {
          nudged = undefined
        })
    },
    start: () => timer?.start(),
    stop: async () => {
      await timer?.stop()
      await nudged
    },
  }
}

export type EvmFollower = ReturnType<typeof evmFollower>
