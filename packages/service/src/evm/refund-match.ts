// The chain watcher's other half (issue 24): a refund paid from any wallet, not through its pay page. A
// Transfer log of a waiting refund's token, of exactly its token amount, to its destination, is the refund's
// when the transaction is the plain transfer carrying the refund's reference (as the pay page builds it), or
// when it came after the refund was made and is the only waiting refund that amount could be (a wallet that
// appends nothing, a contract wallet). The refund is then submitted with that hash, and the refund follower
// (refunds.ts) checks it to its confirmations: the calldata for a reference match, the log for an amount
// match. A submitted refund whose transaction left every block takes a replacement that pays it by reference
// (a wallet's "speed up").
import { getAddress, type Hash, type PublicClient } from 'viem'
import type { Clock } from '../core/clock.ts'
import type { Queryable } from '../db/port.ts'
import { type RefundRecord, refundStore } from '../refunds/index.ts'
import type { TransferLog } from './chain-logs.ts'
import type { Address } from './ids.ts'
import { referenceIn } from './transfer-match.ts'

// Till's clock and the chain's may differ a little: a transfer this much older than the refund still counts.
const CLOCK_SKEW_MS = 60_000

const addressOf = (account: string): Address => account.slice(account.lastIndexOf(':') + 1).toLowerCase() as Address
const tokenOf = (refund: RefundRecord): Address => addressOf(refund.token.unit)

/** The refunds a transfer may still pay on a network, by destination address: what the watcher reads logs for. */
export async function awaitingRefunds(db: Queryable, network: string): Promise<Map<Address, RefundRecord[]>> {
  const byDestination = new Map<Address, RefundRecord[]>()
  for (const refund of await refundStore(db).awaitingTransferOn(network)) {
    if (!refund.destination) continue
    const destination = addressOf(refund.destination)
    byDestination.set(destination, [...(byDestination.get(destination) ?? []), refund])
  }
  return byDestination
}

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505'

/** Submits (or rebinds) each refund a log pays; answers how many it took. */
export async function matchRefunds(
  deps: { db: Queryable; client: PublicClient; clock: Clock },
  logs: readonly TransferLog[],
  awaiting: Map<Address, RefundRecord[]>,
): Promise<number> {
  const store = refundStore(deps.db)
  let taken = 0
  const done = new Set<string>()
  for (const log of logs) {
    const fitting = (awaiting.get(log.to) ?? []).filter(
      (refund) => !done.has(refund.id) && tokenOf(refund) === log.token && refund.tokenAmount === log.value,
    )
    if (fitting.length === 0) continue
    const transaction = await deps.client.getTransaction({ hash: log.txHash as Hash })
    const reference = referenceIn(transaction, log)
    const byReference = reference ? fitting.find((refund) => refund.reference === reference) : undefined
    const ready = fitting.filter((refund) => refund.status === 'ready')
    const byAmount = !byReference && ready.length === 1 ? ready[0] : undefined
    const refund = byReference ?? byAmount
    if (!refund) continue
    if (byAmount && !(await minedAfter(deps.client, log.blockNumber, byAmount.createdAt))) continue
    const from = `${refund.network}:${getAddress(transaction.from)}`
    const now = deps.clock.now()
    try {
      const moved =
        refund.status === 'submitted'
          ? await store.rebind(refund.id, { hash: log.txHash, from }, now)
          : await store.move({
              id: refund.id,
              to: 'submitted',
              from: ['ready'],
              now,
              change: { transaction: { hash: log.txHash, from, matchedBy: byReference ? 'reference' : 'amount' } },
            })
      if (moved) {
        done.add(refund.id)
        taken++
      }
    } catch (error) {
      // The hash already pays another refund (a transaction pays one): this one waits on.
      if (!isUniqueViolation(error)) throw error
    }
  }
  return taken
}

/** Whether the block came after `instant` (give or take the clocks' skew): an older transfer paid something else. */
async function minedAfter(client: PublicClient, blockNumber: bigint, instant: Date): Promise<boolean> {
  const block = await client.getBlock({ blockNumber })
  return Number(block.timestamp) * 1000 >= instant.getTime() - CLOCK_SKEW_MS
}
