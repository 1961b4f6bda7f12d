import type { FastifyBaseLogger } from 'fastify'
import type { Hash } from 'viem'
import type { Clock } from '../core/clock.ts'
import type { Database } from '../db/port.ts'
import type { PaymentService } from '../payments/index.ts'
import type { EvmChains } from './chains.ts'
import type { TransferLog } from './chain-logs.ts'
import { claimTransfer, endedMeanwhile } from './claim.ts'
import type { EvmConfig, EvmNetwork } from './config.ts'
import type { Address } from './ids.ts'
import { type CandidateTx, decide, endedReason, type Match, matchQueries, referenceIn } from './transfer-match.ts'
import { unappliedTransfers } from './unapplied.ts'

// Transactions are read this many at a time: enough to hide an RPC's round trip, few enough for its rate limits.
const READ_CONCURRENCY = 16

async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

/**
 * What the watcher does with the transfers it finds (issue 23): each new one to a watched address is
 * matched, by its reference and then by its exact amount, and either pays its payment through the path a
 * posted hash takes (claim.ts) or is recorded as unapplied, with the reason, for the merchant to refund.
 */
export function foundTransfers(deps: {
  db: Database
  payments: PaymentService
  chains: EvmChains
  config: EvmConfig
  clock: Clock
  log: FastifyBaseLogger
  onClaimed: () => void
}) {
  const queries = matchQueries(deps.db)
  const unapplied = unappliedTransfers(deps.db)

  /** Hashes already bound to a payment or recorded as unapplied: found again, they change nothing. */
  async function known(network: string, hashes: readonly string[]): Promise<Set<string>> {
    const [bound, recorded] = [await queries.bound(network, hashes), await unapplied.recorded(network, hashes)]
    return new Set([...bound, ...recorded])
  }

  async function readTransaction(network: EvmNetwork, hash: string): Promise<CandidateTx | undefined> {
    try {
      const tx = await deps.chains.client(network.id).getTransaction({ hash: hash as Hash })
      return { from: tx.from.toLowerCase() as Address, to: (tx.to?.toLowerCase() as Address) ?? null, input: tx.input, nonce: tx.nonce }
    } catch (error) {
      // Reorganised away since its log was read: the next pass reads its blocks again.
      if (error instanceof Error && error.name === 'TransactionNotFoundError') return undefined
      throw error
    }
  }

  async function apply(network: EvmNetwork, log: TransferLog, tx: CandidateTx, match: Match): Promise<void> {
    const now = deps.clock.now()
    if (match.kind === 'pays') {
      const token = deps.config.tokens.find((candidate) => candidate.network === network.id && candidate.address === log.token)
      if (!token) return
      // A smart-contract wallet's transfer is logged from the wallet, not from the key that signed: refunds go there.
      const sender = match.matchedBy === 'reference' ? tx.from : log.from
      const transfer = {
        network: network.id,
        txHash: log.txHash,
        paymentId: match.payment.id,
        merchantId: match.payment.merchantId,
        sender,
        recipient: log.to,
        token: log.token,
        amount: log.value,
        blockNumber: log.blockNumber,
        matchedBy: match.matchedBy,
      }
      try {
        const claim = {
          payment: match.payment,
          network,
          token,
          transfer,
          nonce: tx.nonce,
          fromBlock: log.blockNumber,
          walletName: null,
          now,
        }
        const claimed = await claimTransfer(deps.payments, claim)
        if (claimed === 'bound') return
        deps.log.info({ paymentId: match.payment.id, txHash: log.txHash, matchedBy: match.matchedBy }, 'a transfer was found on chain')
        deps.onClaimed()
        return
      } catch (error) {
        if (!endedMeanwhile(error)) throw error
        const fresh = await deps.payments.readForCheckout(match.payment.id)
        match = {
          kind: 'unapplied',
          reason: endedReason(fresh?.status ?? 'expired'),
          paymentId: match.payment.id,
          merchantId: match.payment.merchantId,
        }
      }
    }
    const recorded = await unapplied.record(
      {
        network: network.id,
        txHash: log.txHash,
        logIndex: log.logIndex,
        merchantId: match.merchantId,
        paymentId: match.paymentId,
        reason: match.reason,
        sender: log.from,
        recipient: log.to,
        token: log.token,
        amount: log.value,
        blockNumber: log.blockNumber,
      },
      now,
    )
    if (recorded) deps.log.warn({ txHash: log.txHash, reason: match.reason, paymentId: match.paymentId }, 'a transfer paid no payment')
  }

  return {
    /** Each address a payment of the network may be paid to now or was paid to in the last day, with its merchant. */
    watchedAddresses: queries.watched,

    /** Matches and applies the candidate logs of one range, in chain order. */
    async handle(network: EvmNetwork, logs: readonly TransferLog[], addresses: ReadonlyMap<Address, string>): Promise<void> {
      const seen = await known(network.id, [...new Set(logs.map((log) => log.txHash))])
      // One transaction pays one payment or is recorded once: its first log to a watched address decides.
      const fresh: TransferLog[] = []
      for (const log of logs) {
        if (seen.has(log.txHash)) continue
        seen.add(log.txHash)
        fresh.push(log)
      }
      if (fresh.length === 0) return
      const txs = await mapLimit(fresh, READ_CONCURRENCY, (log) => readTransaction(network, log.txHash))
      const now = deps.clock.now()
      for (const tokenAddress of new Set(fresh.map((log) => log.token))) {
        const token = `${network.id}/erc20:${tokenAddress}`
        const rows = fresh.flatMap((log, index) => {
          const tx = txs[index]
          return log.token === tokenAddress && tx ? [{ log, tx, reference: referenceIn(tx, log) }] : []
        })
        const references = rows.flatMap((row) => (row.reference ? [row.reference] : []))
        const byReference = await queries.byReference(network.id, token, references)
        const byAmount = await queries.byAmount(
          network.id,
          token,
          rows.map(({ log }) => ({ to: log.to, value: log.value })),
          now,
        )
        const openAt = await queries.openAt(network.id, token, [...new Set(rows.map(({ log }) => log.to))], now)
        for (const { log, tx, reference } of rows) {
          const match = await decide(
            {
              log,
              reference,
              byReference: reference ? byReference.get(reference) : undefined,
              byAmount: byAmount.get(`${log.to}:${log.value}`),
              openHere: openAt.get(log.to) ?? [],
              merchantId: addresses.get(log.to) ?? '',
            },
            (id) => deps.payments.readForCheckout(id),
          )
          await apply(network, log, tx, match)
        }
      }
    },
  }
}
