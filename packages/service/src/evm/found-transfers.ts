import type { FastifyBaseLogger } from 'fastify'
import type { Hash } from 'viem'
import type { Clock } from '../core/clock.ts'
import { eachLimited } from '../core/concurrency.ts'
import type { Database } from '../db/port.ts'
import { type PaymentService, paymentStore } from '../payments/index.ts'
import type { EvmChains } from './chains.ts'
import type { TransferLog } from './chain-logs.ts'
import { claimTransfer, endedMeanwhile } from './claim.ts'
import type { EvmConfig, EvmNetwork } from './config.ts'
import type { Address } from './ids.ts'
import { type CandidateTx, decide, endedReason, type Match, matchQueries, referenceIn } from './transfer-match.ts'
import { type UnappliedTransfer, unappliedTransfers } from './unapplied.ts'

// Transactions are read this many to a JSON-RPC batch, a few batches at a time: one round trip for many,
// and few enough for the batch limits providers set.
const READ_BATCH = 50
const BATCHES_IN_FLIGHT = 4
// Payments are claimed this many at a time, each in its own database transaction: well within the pool.
const CLAIMS_IN_FLIGHT = 6

export type Candidate = { log: TransferLog; tx: CandidateTx; reference: `0x${string}` | undefined }
type Unapplied = Extract<Match, { kind: 'unapplied' }>

const unappliedOf = (network: EvmNetwork, log: TransferLog, match: Unapplied): UnappliedTransfer => ({
  network: network.id,
  txHash: log.txHash,
  logIndex: log.logIndex,
  merchantId: match.merchantId,
  paymentId: match.paymentId,
  reason: match.reason,
  // Where a refund goes: the address the tokens moved from.
  sender: log.from,
  recipient: log.to,
  token: log.token,
  amount: log.value,
  blockNumber: log.blockNumber,
})

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

  /** The logs whose transaction is neither bound to a payment nor recorded as unapplied; one log per transaction. */
  async function fresh(network: string, logs: readonly TransferLog[]): Promise<TransferLog[]> {
    const hashes = [...new Set(logs.map((log) => log.txHash))]
    const seen = new Set([...(await queries.bound(network, hashes)), ...(await unapplied.recorded(network, hashes))])
    // One transaction pays one payment or is recorded once: its first log to a watched address decides.
    return logs.filter((log) => !seen.has(log.txHash) && Boolean(seen.add(log.txHash)))
  }

  /** Each log's transaction, in JSON-RPC batches; undefined for one reorganised away since its log was read. */
  async function transactions(network: EvmNetwork, logs: readonly TransferLog[]): Promise<(CandidateTx | undefined)[]> {
    const client = deps.chains.batched(network.id)
    const read = async (hash: string): Promise<CandidateTx | undefined> => {
      try {
        const tx = await client.getTransaction({ hash: hash as Hash })
        return { from: tx.from.toLowerCase() as Address, to: (tx.to?.toLowerCase() as Address) ?? null, input: tx.input, nonce: tx.nonce }
      } catch (error) {
        // The next pass reads its blocks again.
        if (error instanceof Error && error.name === 'TransactionNotFoundError') return undefined
        throw error
      }
    }
    const txs: (CandidateTx | undefined)[] = []
    const starts = Array.from({ length: Math.ceil(logs.length / READ_BATCH) }, (_, index) => index * READ_BATCH)
    await eachLimited(starts, BATCHES_IN_FLIGHT, async (at) => {
      const batch = await Promise.all(logs.slice(at, at + READ_BATCH).map((log) => read(log.txHash)))
      batch.forEach((tx, offset) => {
        txs[at + offset] = tx
      })
    })
    return txs
  }

  /** Binds a transfer to the payment it pays; one whose payment ended meanwhile is unapplied after all. */
  async function pay(network: EvmNetwork, candidate: Candidate, match: Extract<Match, { kind: 'pays' }>): Promise<Unapplied | undefined> {
    const { log, tx } = candidate
    const token = deps.config.tokens.find((configured) => configured.network === network.id && configured.address === log.token)
    if (!token) return undefined
    const transfer = {
      network: network.id,
      txHash: log.txHash,
      paymentId: match.payment.id,
      merchantId: match.payment.merchantId,
      // A smart-contract wallet's transfer is logged from the wallet, not from the key that signed: refunds go there.
      sender: match.matchedBy === 'reference' ? tx.from : log.from,
      recipient: log.to,
      token: log.token,
      amount: log.value,
      blockNumber: log.blockNumber,
      matchedBy: match.matchedBy,
    }
    const claim = {
      payment: match.payment,
      network,
      token,
      transfer,
      nonce: tx.nonce,
      fromBlock: log.blockNumber,
      walletName: null,
      seenBy: 'watcher' as const,
    }
    try {
      if ((await claimTransfer(deps.payments, { ...claim, now: deps.clock.now() })) === 'bound') return undefined
    } catch (error) {
      if (!endedMeanwhile(error)) throw error
      const { status } = (await deps.payments.readForCheckout(match.payment.id)) ?? { status: 'expired' as const }
      return { kind: 'unapplied', reason: endedReason(status), paymentId: match.payment.id, merchantId: match.payment.merchantId }
    }
    deps.log.info({ paymentId: match.payment.id, txHash: log.txHash, matchedBy: match.matchedBy }, 'a transfer was found on chain')
    deps.onClaimed()
    return undefined
  }

  async function record(network: EvmNetwork, found: readonly { log: TransferLog; match: Unapplied }[]) {
    const recorded = await unapplied.recordMany(
      found.map(({ log, match }) => unappliedOf(network, log, match)),
      deps.clock.now(),
    )
    for (const { log, match } of found) {
      if (recorded.has(log.txHash))
        deps.log.warn({ txHash: log.txHash, reason: match.reason, paymentId: match.paymentId }, 'a transfer paid no payment')
    }
  }

  /** Matches and applies one token's candidates of a range. */
  async function handleToken(
    network: EvmNetwork,
    token: string,
    candidates: readonly Candidate[],
    addresses: ReadonlyMap<Address, string>,
  ) {
    const now = deps.clock.now()
    const references = candidates.flatMap(({ reference }) => (reference ? [reference] : []))
    const byReference = await queries.byReference(network.id, token, references)
    const byAmount = await queries.byAmount(
      network.id,
      token,
      candidates.map(({ log }) => ({ to: log.to, value: log.value })),
      now,
    )
    const named = ({ reference, log }: Candidate) =>
      (reference ? byReference.get(reference) : undefined) ?? byAmount.get(`${log.to}:${log.value}`)
    const unnamed = candidates.filter((candidate) => !named(candidate))
    // Only a transfer that names no payment is compared with the payments still open at its address.
    const openAt = await queries.openAt(network.id, token, [...new Set(unnamed.map(({ log }) => log.to))], now)
    const decided = (candidate: Candidate, payment: (id: string) => ReturnType<PaymentService['readForCheckout']>) =>
      decide(
        {
          log: candidate.log,
          reference: candidate.reference,
          byReference: candidate.reference ? byReference.get(candidate.reference) : undefined,
          byAmount: byAmount.get(`${candidate.log.to}:${candidate.log.value}`),
          openHere: openAt.get(candidate.log.to) ?? [],
          merchantId: addresses.get(candidate.log.to) ?? '',
        },
        payment,
      )

    // A payment's transfers in chain order (the first pays, the next finds it paid), payments side by side;
    // each payment read once for the range, and again after a transfer of it was applied.
    const byPayment = new Map<string, Candidate[]>()
    for (const candidate of candidates) {
      const id = named(candidate)?.paymentId
      if (id) byPayment.set(id, [...(byPayment.get(id) ?? []), candidate])
    }
    const payments = new Map((await paymentStore(deps.db).findByIds([...byPayment.keys()])).map((record) => [record.id, record]))
    const left: { log: TransferLog; match: Unapplied }[] = []
    await eachLimited([...byPayment.values()], CLAIMS_IN_FLIGHT, async (ofPayment) => {
      let first = true
      for (const candidate of ofPayment) {
        const match = await decided(candidate, async (id) => (first && payments.get(id)) || deps.payments.readForCheckout(id))
        first = false
        const ended = match.kind === 'pays' ? await pay(network, candidate, match) : match
        if (ended) left.push({ log: candidate.log, match: ended })
      }
    })
    // What names no payment reads nothing more: decided at once, recorded in one statement.
    for (const candidate of unnamed) {
      const match = await decided(candidate, async () => undefined)
      if (match.kind === 'unapplied') left.push({ log: candidate.log, match })
    }
    await record(network, left)
  }

  return {
    /** Each address a payment of the network may be paid to now or was paid to in the last day, with its merchant. */
    watchedAddresses: queries.watched,

    /**
     * What a range's candidate logs need from the chain, and only those not seen before: reads, no writes,
     * so it may run while the range before is applied.
     */
    async prepare(network: EvmNetwork, logs: readonly TransferLog[]): Promise<Candidate[]> {
      const candidates = await fresh(network.id, logs)
      if (candidates.length === 0) return []
      const txs = await transactions(network, candidates)
      return candidates.flatMap((log, index) => {
        const tx = txs[index]
        return tx ? [{ log, tx, reference: referenceIn(tx, log) }] : []
      })
    },

    /** Matches and applies a range's prepared candidates, in chain order. */
    async apply(network: EvmNetwork, candidates: readonly Candidate[], addresses: ReadonlyMap<Address, string>): Promise<void> {
      for (const address of new Set(candidates.map(({ log }) => log.token))) {
        const ofToken = candidates.filter(({ log }) => log.token === address)
        await handleToken(network, `${network.id}/erc20:${address}`, ofToken, addresses)
      }
    },
  }
}
