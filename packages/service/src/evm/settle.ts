import type { FastifyBaseLogger } from 'fastify'
import type { Hash } from 'viem'
import type { Queryable } from '../db/port.ts'
import type { Clock } from '../core/clock.ts'
import { ApiError } from '../errors.ts'
import type { PaymentRecord, PaymentService } from '../payments/index.ts'
import { paymentStore } from '../payments/index.ts'
import type { EvmChains } from './chains.ts'
import { paymentReference } from './reference.ts'
import { replacementOf } from './replacement.ts'
import { evmTransfers, type Watch } from './transfers.ts'
import { checkTransfer, type TransferCheck } from './verify.ts'

export type FailReason = 'transaction_reverted' | 'transaction_dropped' | 'transaction_invalid' | 'transaction_replaced'

export type Outcome =
  | { kind: 'succeeded'; blockNumber: bigint }
  | { kind: 'failed'; reason: FailReason }
  | { kind: 'waiting'; blockNumber: bigint | null; unminedSince: Date | null }

/** What a check means for a processing payment (ADR 23): monotonic, so a reorg only ever sends it back to waiting. */
export function outcomeOf(
  watch: Pick<Watch, 'unminedSince'>,
  check: TransferCheck,
  required: number,
  now: Date,
  dropAfterMs: number,
): Outcome {
  switch (check.status) {
    case 'mined':
      return check.confirmations >= BigInt(required)
        ? { kind: 'succeeded', blockNumber: check.blockNumber }
        : { kind: 'waiting', blockNumber: check.blockNumber, unminedSince: null }
    case 'reverted':
      return check.confirmations >= BigInt(required)
        ? { kind: 'failed', reason: 'transaction_reverted' }
        : { kind: 'waiting', blockNumber: check.blockNumber, unminedSince: null }
    case 'pending':
      // Still in the node's mempool: it can be mined at any moment, so it is never given up while there.
      return { kind: 'waiting', blockNumber: null, unminedSince: watch.unminedSince ?? now }
    case 'unknown': {
      const unminedSince = watch.unminedSince ?? now
      return now.getTime() - unminedSince.getTime() >= dropAfterMs
        ? { kind: 'failed', reason: 'transaction_dropped' }
        : { kind: 'waiting', blockNumber: null, unminedSince }
    }
    case 'refused':
      // The hash fixes what the transaction does, and it checked out on submission: only an RPC that
      // answered wrongly then, or now, gets here. Waiting would not change a mined transaction.
      return { kind: 'failed', reason: 'transaction_invalid' }
  }
}

export type SettleDeps = {
  db: Queryable
  payments: PaymentService
  chains: EvmChains
  clock: Clock
  log: FastifyBaseLogger
  dropAfterMs: number
  recheckMs: number
}

/**
 * Checks one watched transaction on its network and moves its payment as the chain says. A transaction
 * gone missing whose nonce was used by another is a wallet's replacement ("speed up"): followed instead
 * when it pays the same way, else the payment fails.
 */
export async function settle(deps: SettleDeps, watch: Watch, payment: PaymentRecord): Promise<void> {
  const network = deps.chains.network(watch.network)
  if (!network) return
  const client = deps.chains.client(network.id)
  const { transfer } = watch
  const expected = {
    chainId: network.chainId,
    token: transfer.token,
    from: transfer.sender,
    to: transfer.recipient,
    amount: transfer.amount,
    // A transfer matched by its amount carried no reference: its Transfer log is what is checked.
    reference: transfer.matchedBy === 'reference' ? paymentReference(payment.id) : undefined,
  }
  const check = await checkTransfer(client, watch.txHash as Hash, expected)
  const now = deps.clock.now()
  // Only a transfer the buyer's own account signed can be replaced by its nonce; one matched by amount may
  // come from a contract wallet, whose nonce says nothing of it.
  if (check.status === 'unknown' && transfer.matchedBy === 'reference') {
    const replacement = await replacementOf(client, { sender: transfer.sender, nonce: watch.nonce, fromBlock: watch.fromBlock })
    if (replacement.status !== 'unused') {
      const same = replacement.status === 'found' ? await checkTransfer(client, replacement.hash, expected) : undefined
      if (replacement.status === 'found' && same && same.status !== 'refused' && same.status !== 'unknown') {
        const rebound = await deps.payments.atomically(async ({ tx }) => {
          if (!(await evmTransfers(tx).rebind(watch, replacement.hash, now))) return false
          return paymentStore(tx).replaceTransaction(payment.id, replacement.hash.toLowerCase(), now)
        })
        if (rebound) {
          deps.log.info({ paymentId: payment.id, from: watch.txHash, to: replacement.hash }, 'the buyer’s wallet replaced the transaction')
          return
        }
      }
      return end(deps, watch, payment, { kind: 'failed', reason: 'transaction_replaced' }, now)
    }
  }
  if ((check.status === 'mined' || check.status === 'reverted') && check.confirmations > 0n) {
    await evmTransfers(deps.db).confirmed({
      paymentId: payment.id,
      txHash: watch.txHash,
      // Past the requirement the count says nothing more, and a huge one would not fit the column.
      confirmations: Number(check.confirmations > BigInt(network.confirmations) ? BigInt(network.confirmations) : check.confirmations),
      required: network.confirmations,
      blockNumber: check.blockNumber,
      at: now,
    })
  }
  const outcome = outcomeOf(watch, check, network.confirmations, now, deps.dropAfterMs)
  if (outcome.kind !== 'waiting') return end(deps, watch, payment, outcome, now)
  if (outcome.unminedSince && !watch.unminedSince)
    deps.log.warn({ paymentId: payment.id, txHash: watch.txHash }, 'a followed transaction is not mined')
  await evmTransfers(deps.db).reschedule({ paymentId: payment.id, ...outcome, next: new Date(now.getTime() + deps.recheckMs) })
}

async function end(deps: SettleDeps, watch: Watch, payment: PaymentRecord, outcome: Exclude<Outcome, { kind: 'waiting' }>, now: Date) {
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
