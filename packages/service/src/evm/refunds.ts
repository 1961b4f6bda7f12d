// Refunds on EVM networks (issue 24): the merchant's own wallet sends `transfer(destination, tokenAmount)`
// followed by the refund's reference; Till checks it on the network's RPC as it checks a payment's transfer
// (verify.ts) and follows it to its confirmations, through reorgs, as the follower does (settle.ts outcomeOf).
import type { FastifyBaseLogger } from 'fastify'
import { erc20Abi, getAddress, type Hash, parseEventLogs, type PublicClient, TransactionReceiptNotFoundError } from 'viem'
import type { Clock } from '../core/clock.ts'
import { jobFailed, periodic } from '../core/periodic.ts'
import { type Database, DatabaseUnavailable } from '../db/port.ts'
import { ApiError, fieldError } from '../errors.ts'
import type { RefundRail, RefundRecord } from '../refunds/index.ts'
import { refundStore } from '../refunds/index.ts'
import { evmChains } from './chains.ts'
import type { EvmConfig } from './config.ts'
import type { Address } from './ids.ts'
import type { FollowerTiming } from './follower.ts'
import { outcomeOf } from './settle.ts'
import { checkTransfer, type TransferExpectation } from './verify.ts'

// As the payment follower: one refund's transaction at a time, leased for a minute, so an instance that
// crashes holds up one refund, for a minute at most.
const LEASE_MS = 60_000
const PARKED_MS = 60 * 60_000

const addressOf = (account: string): Address => account.slice(account.lastIndexOf(':') + 1).toLowerCase() as Address

/**
 * Who a mined transaction's Transfer of the refund's token, of exactly its token amount, went to: the
 * destination of a refund marked refunded before the buyer claimed it. Throws 400 naming transactionHash when
 * it holds no such Transfer.
 */
async function recipientOf(client: PublicClient, refund: RefundRecord, hash: string): Promise<string> {
  const receipt = await client.getTransactionReceipt({ hash: hash as Hash }).catch((error: unknown) => {
    if (error instanceof TransactionReceiptNotFoundError) {
      throw new ApiError('transaction_not_found', `The node does not know a mined transaction ${hash} yet; try again shortly.`)
    }
    throw error
  })
  const token = addressOf(refund.token.unit)
  const paying = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).find(
    (log) => log.address.toLowerCase() === token && log.args.value === refund.tokenAmount,
  )
  if (!paying) throw fieldError('transactionHash', `does not pay this refund: it moves no ${refund.tokenAmount} units of its token`)
  return `${refund.network}:${getAddress(paying.args.to)}`
}

export type EvmRefunds = RefundRail & { runOnce(): Promise<number>; start(): void; stop(): Promise<void> }

export function evmRefunds(input: {
  db: Database
  config: EvmConfig
  clock: Clock
  log: FastifyBaseLogger
  timing: FollowerTiming
}): EvmRefunds {
  const deps = { ...input, chains: evmChains(input.config) }
  const store = refundStore(deps.db)

  /** What the refund's transfer must be: its token and exact amount to its destination, and its reference when the page built it. */
  function expectation(refund: RefundRecord, destination: string, withReference: boolean): TransferExpectation {
    const network = deps.chains.network(refund.network)
    if (!network) throw new ApiError('refund_not_payable', `The network ${refund.network} is no longer configured; refund it outside Till.`)
    return {
      chainId: network.chainId,
      token: addressOf(refund.token.unit),
      from: undefined,
      to: addressOf(destination),
      recipientName: 'the refund’s destination',
      amount: refund.tokenAmount,
      reference: withReference ? refund.reference : undefined,
    }
  }

  async function check(refund: RefundRecord): Promise<void> {
    const { transaction, destination } = refund
    const network = deps.chains.network(refund.network)
    if (!transaction || !destination) return
    if (!network) {
      // Its network left the configuration: looked at again much later, rather than at every lease.
      deps.log.warn(
        { refundId: refund.id, network: refund.network },
        'a refund’s transaction cannot be checked: its network is not configured',
      )
      return store.reschedule(refund.id, new Date(deps.clock.now().getTime() + PARKED_MS), refund)
    }
    const expected = expectation(refund, destination, transaction.matchedBy === 'reference')
    const result = await checkTransfer(deps.chains.client(network.id), transaction.hash as Hash, expected)
    const now = deps.clock.now()
    const outcome = outcomeOf(refund, result, network.confirmations, now, deps.timing.dropAfterMs)
    if (outcome.kind === 'succeeded') await store.move({ id: refund.id, to: 'succeeded', from: ['submitted'], now })
    else if (outcome.kind === 'failed') {
      deps.log.warn({ refundId: refund.id, txHash: transaction.hash, reason: outcome.reason }, 'a refund’s transaction failed')
      await store.move({ id: refund.id, to: 'failed', from: ['submitted'], now })
    } else {
      await store.reschedule(refund.id, new Date(now.getTime() + deps.timing.recheckMs), outcome)
    }
  }

  let stopping = false
  async function runOnce(): Promise<number> {
    let checked = 0
    const now = deps.clock.now()
    // Each refund once a run: one rescheduled for now is for the next run.
    const seen: string[] = []
    while (!stopping) {
      const [refund] = await store.lease(now, new Date(deps.clock.now().getTime() + LEASE_MS), 1, seen)
      if (!refund) break
      seen.push(refund.id)
      try {
        await check(refund)
      } catch (error) {
        if (error instanceof DatabaseUnavailable) throw error
        deps.log.warn({ err: error, refundId: refund.id }, 'checking a refund’s transaction failed; it is checked again later')
      }
      checked++
    }
    return checked
  }

  const timer =
    deps.timing.intervalMs > 0
      ? periodic({ intervalMs: deps.timing.intervalMs, run: async () => void (await runOnce()), name: 'following refunds', log: deps.log })
      : undefined
  let nudged: Promise<unknown> | undefined

  return {
    name: 'evm',
    runOnce,
    token(network, tokenUnit) {
      const token = deps.config.tokens.find((candidate) => candidate.id === tokenUnit && candidate.network === network)
      return token && { symbol: token.symbol, name: token.name, decimals: token.decimals }
    },
    async checkTransaction(refund, hash, matchedBy) {
      // A buyer's payment to the merchant moves the same token the same way: it is never a refund.
      const [payment] = await deps.db.query(
        `SELECT 1 FROM evm_transfers WHERE network = $1 AND tx_hash = $2
          UNION ALL SELECT 1 FROM evm_unapplied_transfers WHERE network = $1 AND tx_hash = $2`,
        [refund.network, hash.toLowerCase()],
      )
      if (payment) throw fieldError('transactionHash', "is a buyer's transfer to the merchant, not a refund")
      const network = deps.chains.network(refund.network)
      const client = deps.chains.client(refund.network)
      // Paid outside Till before the buyer named an account: the transfer itself says where it went.
      const destination = refund.destination ?? (await recipientOf(client, refund, hash))
      const expected = expectation(refund, destination, matchedBy === 'reference')
      const result = await checkTransfer(client, hash as Hash, expected)
      if (result.status === 'unknown') {
        throw new ApiError(
          'transaction_not_found',
          `The node of ${network?.name ?? refund.network} does not know ${hash} yet; try again shortly.`,
        )
      }
      if (result.status === 'refused') throw fieldError('transactionHash', `does not pay this refund: ${result.message}`)
      const { from } = await client.getTransaction({ hash: hash as Hash })
      return { from: `${refund.network}:${getAddress(from)}`, to: destination, matchedBy }
    },
    nudge() {
      if (!timer || stopping) return
      nudged ??= runOnce()
        .catch(jobFailed(deps.log, 'following refunds'))
        .finally(() => {
          nudged = undefined
        })
    },
    start() {
      stopping = false
      timer?.start()
    },
    async stop() {
      stopping = true
      await timer?.stop()
      await nudged
    },
  }
}
