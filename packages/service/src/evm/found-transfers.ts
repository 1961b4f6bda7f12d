import type { FastifyBaseLogger } from 'fastify'
import type { Hash } from 'viem'
import type { Clock } from '../core/clock.ts'
import type { Database } from '../db/port.ts'
import { type PaymentService, paymentStore } from '../payments/index.ts'
import type { EvmChains } from './chains.ts'
import type { TransferLog } from './chain-logs.ts'
import { claimTransfer, endedMeanwhile } from './claim.ts'
import type { EvmConfig, EvmNetwork } from './config.ts'
import type { Address } from './ids.ts'
import { type CandidateTx, decide, endedReason, type Match, matchQueries, referenceIn } from './transfer-match.ts'
import { unappliedTransfers } from './unapplied.ts'

// Transactions are read this many to a JSON-RPC batch, a batch at a time: one round trip for many, and few
// enough for the batch limits providers set.
const READ_BATCH = 50
const BATCHES_IN_FLIGHT = 4
// Transfers are applied this many at a time, each in its own database transaction: well within the pool.
const APPLY_CONCURRENCY = 6

/**
 * `work` on each item, `limit` at a time. After a failure no more are started, and it rejects once those
 * already running have ended: nothing is still writing when the caller hears of it.
 */
async function mapLimit<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  let failure: { error: unknown } | undefined
  const worker = async () => {
    while (next < items.length && !failure) {
      const item = items[next++] as T
      try {
        await work(item)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  if (failure) throw failure.error
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
      const tx = await deps.chains.batched(network.id).getTransaction({ hash: hash as Hash })
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
      const txs: (CandidateTx | undefined)[] = []
      const batches = Array.from({ length: Math.ceil(fresh.length / READ_BATCH) }, (_, index) => index * READ_BATCH)
      await mapLimit(batches, BATCHES_IN_FLIGHT, async (at) => {
        const read = await Promise.all(fresh.slice(at, at + READ_BATCH).map((log) => readTransaction(network, log.txHash)))
        read.forEach((tx, offset) => {
          txs[at + offset] = tx
        })
      })
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
        const named = (row: (typeof rows)[number]) =>
          (row.reference ? byReference.get(row.reference) : undefined) ?? byAmount.get(`${row.log.to}:${row.log.value}`)
        // Only a transfer that names no payment is compared with the payments still open at its address.
        const unnamed = rows.filter((row) => !named(row)).map(({ log }) => log.to)
        const openAt = await queries.openAt(network.id, token, [...new Set(unnamed)], now)
        // Transfers naming one payment are decided and applied in chain order (the first pays, the next finds
        // it paid); the others, each its own, are applied side by side.
        const groups = new Map<string, typeof rows>()
        for (const row of rows) {
          const key = named(row)?.paymentId ?? row.log.txHash
          groups.set(key, [...(groups.get(key) ?? []), row])
        }
        // Each group's payment in one read: the first transfer of a group is decided on it (a claim still
        // checks the status and deadline as it moves the payment); the next ones read it again, after it.
        const namedIds = [...new Set(rows.flatMap((row) => named(row)?.paymentId ?? []))]
        const prefetched = new Map((await paymentStore(deps.db).findByIds(namedIds)).map((record) => [record.id, record]))
        await mapLimit([...groups.values()], APPLY_CONCURRENCY, async (group) => {
          let first = true
          for (const { log, tx, reference } of group) {
            const match = await decide(
              {
                log,
                reference,
                byReference: reference ? byReference.get(reference) : undefined,
                byAmount: byAmount.get(`${log.to}:${log.value}`),
                openHere: openAt.get(log.to) ?? [],
                merchantId: addresses.get(log.to) ?? '',
              },
              async (id) => (first && prefetched.get(id)) || deps.payments.readForCheckout(id),
            )
            first = false
            await apply(network, log, tx, match)
          }
        })
      }
    },
  }
}
