// The chain watcher's other half (issue 24): a refund paid from any wallet, not through its pay page. A
// Transfer log of a ready refund's token, of exactly its token amount, to its destination, is the refund's
// when the transaction carries the refund's reference, or when it is the only ready refund that amount
// could be (a wallet that appends nothing). The refund is then submitted with that hash, and the refund
// follower (refunds.ts) checks it to its confirmations like any other.
import { getAddress, type Hash, type PublicClient } from 'viem'
import type { Clock } from '../core/clock.ts'
import type { Queryable } from '../db/port.ts'
import { type RefundRecord, refundStore } from '../refunds/index.ts'
import type { TransferLog } from './chain-logs.ts'
import type { Address } from './ids.ts'

const addressOf = (account: string): Address => account.slice(account.lastIndexOf(':') + 1).toLowerCase() as Address
const tokenOf = (refund: RefundRecord): Address => addressOf(refund.token.unit)

/** The ready refunds of a network by destination address: what the watcher reads logs for. */
export async function readyRefunds(db: Queryable, network: string): Promise<Map<Address, RefundRecord[]>> {
  const byDestination = new Map<Address, RefundRecord[]>()
  for (const refund of await refundStore(db).readyOn(network)) {
    if (!refund.destination) continue
    const destination = addressOf(refund.destination)
    byDestination.set(destination, [...(byDestination.get(destination) ?? []), refund])
  }
  return byDestination
}

/** Submits each ready refund a log pays; answers how many it submitted. */
export async function matchRefunds(
  deps: { db: Queryable; client: PublicClient; clock: Clock },
  logs: readonly TransferLog[],
  ready: Map<Address, RefundRecord[]>,
): Promise<number> {
  let submitted = 0
  const taken = new Set<string>()
  for (const log of logs) {
    const fitting = (ready.get(log.to) ?? []).filter(
      (refund) => !taken.has(refund.id) && tokenOf(refund) === log.token && refund.tokenAmount === log.value,
    )
    if (fitting.length === 0) continue
    const transaction = await deps.client.getTransaction({ hash: log.txHash as Hash })
    const input = transaction.input.toLowerCase()
    const byReference = fitting.find((refund) => input.includes(refund.reference.slice(2)))
    const refund = byReference ?? (fitting.length === 1 ? fitting[0] : undefined)
    if (!refund) continue
    const moved = await refundStore(deps.db)
      .move({
        id: refund.id,
        to: 'submitted',
        from: ['ready'],
        now: deps.clock.now(),
        change: {
          transaction: {
            hash: log.txHash,
            from: `${refund.network}:${getAddress(transaction.from)}`,
            matchedBy: byReference ? 'reference' : 'amount',
          },
        },
      })
      // The hash already pays another refund (a transaction pays one): this one stays ready.
      .catch((error: unknown) => {
        if ((error as { code?: string } | null)?.code === '23505') return undefined
        throw error
      })
    if (moved) {
      taken.add(refund.id)
      submitted++
    }
  }
  return submitted
}
