import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../core/clock.ts'
import { jobFailed, periodic } from '../core/periodic.ts'
import { type Database, DatabaseUnavailable } from '../db/port.ts'
import type { PaymentService } from '../payments/index.ts'
import type { EvmChains } from './chains.ts'
import { logRanges } from './chain-logs.ts'
import type { EvmConfig, EvmNetwork } from './config.ts'
import { watchCursors } from './watch-cursors.ts'
import { foundTransfers } from './found-transfers.ts'
import { awaitingRefunds, matchRefunds } from './refund-match.ts'

export type WatcherTiming = {
  /**
   * How often each network's new blocks are read; 0 leaves it to `runOnce` (tests). Each pass asks the
   * head once per network, and reads logs only when there are new blocks and addresses to watch.
   */
  watchIntervalMs: number
}

/** Hears what the chain jobs saw (metrics): a network's head, and an RPC call that failed. */
export type ChainObserver = {
  head(network: string, block: bigint): void
  rpcFailed(network: string, job: 'watcher' | 'follower'): void
}

export const UNOBSERVED_CHAINS: ChainObserver = { head: () => {}, rpcFailed: () => {} }

// A pass renews the lease at every range it reads; an instance that stops renewing (crashed, or cut off
// from its RPC for this long) hands the network over to another.
const LEASE_MS = 60_000

/**
 * The chain watcher (issue 23, ADR 23): reads each configured network's token Transfer logs from a durable
 * cursor, finds those to addresses Till is watching, and hands them to the same path a posted hash takes.
 * Several instances share it by a lease per network; a restart reads on from the cursor.
 */
export function evmWatcher(deps: {
  db: Database
  payments: PaymentService
  chains: EvmChains
  config: EvmConfig
  clock: Clock
  log: FastifyBaseLogger
  timing: WatcherTiming
  /** A transfer was bound: the follower checks it now rather than at its next tick. */
  claimed: () => void
  observe?: ChainObserver
}) {
  const observe = deps.observe ?? UNOBSERVED_CHAINS
  const owner = randomUUID()
  const cursors = watchCursors(deps.db)
  const found = foundTransfers({ ...deps, onClaimed: deps.claimed })
  const networks = deps.config.networks.map((network) => ({
    network,
    tokens: deps.config.tokens.filter((token) => token.network === network.id).map((token) => token.address),
    ranges: logRanges(network.maxLogRange),
  }))
  let stopping = false
  /** The networks whose last pass failed. */
  const failing = new Set<string>()

  /** Reads `network` from its cursor to the head; answers how many blocks it read (0 when another instance holds it). */
  async function pass(watched: (typeof networks)[number]): Promise<bigint> {
    const { network, tokens, ranges } = watched
    const client = deps.chains.client(network.id)
    // The head first, the watched addresses after: a quote made after this read can only be paid in a later block.
    const head = await client.getBlockNumber({ cacheTime: 0 })
    observe.head(network.id, head)
    const now = deps.clock.now()
    const lease = { network: network.id, owner, now, until: new Date(now.getTime() + LEASE_MS) }
    const cursor = await cursors.lease({ ...lease, start: firstBlock(head, network) })
    if (cursor === undefined || tokens.length === 0) return 0n
    // The last blocks before the cursor are read again: a reorg shallower than the confirmations may have
    // put other transfers in them. Finding one twice changes nothing (a hash is bound or recorded once).
    const from = cursor > BigInt(network.confirmations) ? cursor - BigInt(network.confirmations) : 0n
    if (from > head) return 0n
    const addresses = await found.watchedAddresses(network.id, now)
    // Refunds paid from any wallet (issue 24): their transfers go to the buyers' destinations.
    const refunds = await awaitingRefunds(deps.db, network.id)
    let read = 0n
    if (addresses.size === 0 && refunds.size === 0) {
      // No payment or refund to find: nothing to read, only the cursor to move.
      await cursors.advance({ ...lease, nextBlock: head + 1n })
      return head + 1n - from
    }
    const pieces = ranges.pieces(client, tokens, { from, to: head })
    // The chain is read a range ahead: the next range's logs and transactions while this one is applied.
    const readAhead = async () => {
      const piece = await pieces.next()
      if (piece.done) return undefined
      const candidates = piece.value.logs.filter((log) => addresses.has(log.to))
      const refundLogs = piece.value.logs.filter((log) => refunds.has(log.to))
      return { last: piece.value.last, candidates: candidates.length > 0 ? await found.prepare(network, candidates) : [], refundLogs }
    }
    let next = readAhead()
    try {
      for (let range = await next; range !== undefined; range = await next) {
        next = readAhead()
        // Its failure is heard when it is awaited, or not at all once this pass has stopped.
        next.catch(() => {})
        if (range.candidates.length > 0) await found.apply(network, range.candidates, addresses)
        if (range.refundLogs.length > 0) await matchRefunds({ db: deps.db, client, clock: deps.clock }, range.refundLogs, refunds)
        read = range.last + 1n - from
        const at = deps.clock.now()
        const advanced = await cursors.advance({
          ...lease,
          now: at,
          until: new Date(at.getTime() + LEASE_MS),
          nextBlock: range.last + 1n > cursor ? range.last + 1n : cursor,
        })
        if (!advanced || stopping) break
      }
    } finally {
      // Nothing of this pass is still reading when it ends.
      await next.catch(() => undefined)
      await pieces.return(undefined)
    }
    return read
  }

  /** One pass over every network; resolves with the blocks read. A network's failure does not stop the others. */
  async function runOnce(): Promise<bigint> {
    let read = 0n
    for (const watched of networks) {
      if (stopping) break
      const network = watched.network.id
      try {
        read += await pass(watched)
        if (failing.delete(network)) deps.log.info({ network }, 'reading transfers on chain works again')
      } catch (error) {
        if (error instanceof DatabaseUnavailable) throw error
        // The RPC failed or timed out: the cursor has not moved past anything unread; the next pass retries.
        // Said once per outage, not twice a second while it lasts.
        const first = !failing.has(network)
        failing.add(network)
        observe.rpcFailed(network, 'watcher')
        deps.log[first ? 'warn' : 'debug']({ err: error, network }, 'reading transfers on chain failed; read again at the next pass')
      }
    }
    return read
  }

  const timer =
    deps.timing.watchIntervalMs > 0
      ? periodic({
          intervalMs: deps.timing.watchIntervalMs,
          run: async () => void (await runOnce()),
          name: 'watching the chain',
          log: deps.log,
        })
      : undefined

  return {
    runOnce,
    start() {
      stopping = false
      timer?.start()
    },
    async stop() {
      stopping = true
      await timer?.stop()
      // Handed over at once: another instance need not wait for the lease to run out.
      await Promise.all(networks.map(({ network }) => cursors.release(network.id, owner).catch(jobFailed(deps.log, 'releasing a lease'))))
    },
  }
}

/** Where a network never read before starts: the blocks a reorg could still change, up to the head. */
function firstBlock(head: bigint, network: EvmNetwork): bigint {
  const depth = BigInt(network.confirmations)
  return head >= depth ? head - depth + 1n : 0n
}

export type EvmWatcher = ReturnType<typeof evmWatcher>
