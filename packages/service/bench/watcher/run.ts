// The chain watcher bench (`pnpm bench`, after the webhooks): a real anvil chain, the default embedded
// engine, the watcher in-process. (1) Catch-up: 1,000 merchants with open payments, 10,000 ERC-20 transfers
// to their addresses in 10,000 blocks, read by one watcher from its cursor to the head; the floor is bare
// eth_getLogs over the same blocks in the same ranges, in the same run. (2) Latency: the watcher on its own
// timer, anvil mining a block a second, a transfer at a time: from its block to its payment's processing.
// Goals are printed beside the figures, never asserted; it exits 0 either way, and 1 when it could not
// measure (a transfer the watcher applied wrongly or never, a chain that did not come out as planned).
import { writeFile } from 'node:fs/promises'
import { Session } from 'node:inspector/promises'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_API_VERSION } from '@till/contract'
import type { FastifyBaseLogger } from 'fastify'
import pino from 'pino'
import { type Address, parseAbiItem, type PublicClient } from 'viem'
import { accountStore } from '../../src/accounts/store.ts'
import { DEFAULT_EVM_TIMING } from '../../src/app-config.ts'
import { systemClock } from '../../src/core/clock.ts'
import { openDatabase } from '../../src/db/open.ts'
import type { Database } from '../../src/db/port.ts'
import { type EvmChains, evmChains } from '../../src/evm/chains.ts'
import type { EvmConfig } from '../../src/evm/config.ts'
import { paymentReference } from '../../src/evm/reference.ts'
import { watchCursors } from '../../src/evm/watch-cursors.ts'
import { evmWatcher } from '../../src/evm/watcher.ts'
import { STATUS_CHANNEL } from '../../src/payments/status-notifications.ts'
import { paymentService } from '../../src/payments/service.ts'
import {
  type BenchChain,
  benchChain,
  calldata,
  chainClients,
  jsonRpc,
  NETWORK,
  type PlannedTransfer,
  SENDERS,
  sendOnePerBlock,
} from './chain.ts'

function positiveInteger(name: string, fallback: number, max: number): number {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be a whole number from 1 to ${max}`)
  return value
}

const BLOCKS = positiveInteger('BENCH_WATCHER_BLOCKS', 10_000, 200_000)
const MERCHANTS = positiveInteger('BENCH_WATCHER_MERCHANTS', 1_000, 100_000)
const LOG_RANGE = positiveInteger('BENCH_WATCHER_LOG_RANGE', 1_000, 10_000)
const LATENCY_TRANSFERS = positiveInteger('BENCH_WATCHER_TRANSFERS', 50, 1_000)
const BLOCK_TIME_S = 1
const CATCH_UP_GOAL = 3
const LATENCY_GOAL_MS = 1_000
/** A payment not processing this long after its transfer was sent is a failure, not a figure. */
const LATENCY_TIMEOUT_MS = 30_000
/** Transfers sent before the timed ones: connections and the JIT warm up. */
const WARMUP = 3
/** Payments per merchant in the catch-up: three paid by amount, one by reference, one left open. */
const PAYMENTS_PER_MERCHANT = 5
const PROFILE_DIR = process.env.BENCH_WATCHER_PROF

const benchStarted = performance.now()
const log = (line: string) => process.stderr.write(`[${((performance.now() - benchStarted) / 1000).toFixed(1)} s] ${line}\n`)
const wallNow = () => performance.timeOrigin + performance.now()
const silent = pino({ level: 'silent' }) as unknown as FastifyBaseLogger
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN
const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

// ---------------------------------------------------------------------------------------------------------
// Where the time goes: wall time during which at least one call of a kind was in flight (calls made
// concurrently count once), and how many calls.

function meter() {
  let inFlight = 0
  let since = 0
  const state = { calls: 0, busyMs: 0 }
  return {
    state,
    async time<T>(work: () => Promise<T>): Promise<T> {
      state.calls++
      if (inFlight++ === 0) since = performance.now()
      try {
        return await work()
      } finally {
        if (--inFlight === 0) state.busyMs += performance.now() - since
      }
    },
    reset() {
      state.calls = 0
      state.busyMs = 0
    },
  }
}

const meters = { getTransaction: meter(), getLogs: meter(), getBlockNumber: meter(), query: meter(), transaction: meter() }
const database = meter()
/** The database's time by statement (its first words) and by transaction, each call's own duration summed. */
const statements = new Map<string, { calls: number; ms: number }>()

async function timedStatement<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now()
  try {
    return await work()
  } finally {
    const entry = statements.get(label) ?? { calls: 0, ms: 0 }
    entry.calls++
    entry.ms += performance.now() - started
    statements.set(label, entry)
  }
}

const statementLabel = (sql: string) => sql.replace(/\s+/g, ' ').trim().slice(0, 48)

function meteredDb(db: Database): Database {
  return {
    ...db,
    query: (sql, params) => database.time(() => meters.query.time(() => timedStatement(statementLabel(sql), () => db.query(sql, params)))),
    transaction: (work) => database.time(() => meters.transaction.time(() => timedStatement('(transaction)', () => db.transaction(work)))),
  }
}

function meteredChains(chains: EvmChains): EvmChains {
  const clients = new Map<string, PublicClient>()
  const metered = (key: string, client: () => PublicClient): PublicClient => {
    let found = clients.get(key)
    if (!found) {
      found = new Proxy(client(), {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver)
          if (property !== 'getTransaction' && property !== 'getLogs' && property !== 'getBlockNumber') return value
          const meter = meters[property]
          return (...args: unknown[]) => meter.time(() => (value as (...a: unknown[]) => Promise<unknown>)(...args))
        },
      })
      clients.set(key, found)
    }
    return found
  }
  return {
    network: chains.network,
    client: (id) => metered(`one:${id}`, () => chains.client(id)),
    batched: (id) => metered(`batched:${id}`, () => chains.batched(id)),
  }
}

function watcherOn(db: Database, config: EvmConfig, watchIntervalMs: number) {
  const metered = meteredDb(db)
  const payments = paymentService({ db: metered, clock: systemClock, policy: { paymentTtlSeconds: 900, allowLoopbackRedirects: false } })
  return evmWatcher({
    db: metered,
    payments,
    chains: meteredChains(evmChains(config)),
    config,
    clock: systemClock,
    log: silent,
    timing: { watchIntervalMs },
    claimed: () => {},
  })
}

// ---------------------------------------------------------------------------------------------------------
// The merchants and their open payments, written directly (as the "1,000 merchants" test does): each
// merchant receives at its own address, each payment is quoted its own exact amount there.

const merchantId = (m: number) => `mer_watch${m}`
const addressOf = (m: number) => `0x${'cc'.repeat(4)}${m.toString(16).padStart(32, '0')}` as Address
const paymentIdOf = (m: number, k: number) => `pay_${String(m * 10_000 + k).padStart(32, '0')}`
/** 19.99 EUR at 1.0842 is 21.673158 USDC; each quote at an address is made unique by a few micro-units. */
const amountOf = (k: number) => 21_673_158n + BigInt(k)

async function seedMerchants(db: Database, partnerId: string, count: number, now: Date): Promise<void> {
  const ids = Array.from({ length: count }, (_, m) => merchantId(m))
  await db.query(
    `INSERT INTO merchants (id, partner_id, name, email, created_at, updated_at)
     SELECT id, $1, 'Shop ' || id, id || '@example.com', $2, $2 FROM unnest($3::text[]) id`,
    [partnerId, now, ids],
  )
}

/** Opens payment `k` of each merchant in `merchants`, quoted in `token` (a token id, as in the configuration). */
async function openPayments(db: Database, input: { partnerId: string; token: string; merchants: number[]; k: number; now: Date }) {
  const { partnerId, token, merchants, k, now } = input
  const paymentIds = merchants.map((m) => paymentIdOf(m, k))
  await db.query(
    `WITH p AS (
       INSERT INTO payments (id, merchant_id, partner_id, reference_id, currency, fiat_exponent, amount_minor, redirect_enabled,
                             status, created_at, updated_at, expires_at)
       SELECT id, merchant_id, $1, 'order-' || id, 'EUR', 2, 1999, false, 'pending', $2, $2, $2::timestamptz + interval '15 minutes'
         FROM unnest($5::text[], $6::text[]) AS w (id, merchant_id)
       RETURNING id
     ), q AS (
       INSERT INTO payment_quotes (payment_id, option_id, network, token, token_minor, rate, rate_source, recipient, unique_amount,
                                   created_at, reference, watch_until)
       SELECT w.id, 'usdc-31337', $3, $4, w.amount, '1.0842', 'fixed', w.recipient, true, $2, w.reference,
              $2::timestamptz + interval '1 day'
         FROM unnest($5::text[], $7::text[], $8::numeric[], $9::text[]) AS w (id, recipient, amount, reference)
         JOIN p ON p.id = w.id
       RETURNING payment_id, recipient, token_minor
     )
     INSERT INTO quote_amount_slots (network, token, recipient, token_minor, payment_id, held_until)
     SELECT $3, $4, recipient, token_minor, payment_id, $2::timestamptz + interval '1 day' FROM q`,
    [
      partnerId,
      now,
      NETWORK,
      token,
      paymentIds,
      merchants.map(merchantId),
      merchants.map(addressOf),
      merchants.map(() => amountOf(k).toString()),
      paymentIds.map((id) => paymentReference(id)),
    ],
  )
  return paymentIds
}

// ---------------------------------------------------------------------------------------------------------
// The catch-up's chain: transfer j goes to merchant j mod M, in rounds of M transfers.

type Kind = 'amount' | 'reference' | 'already_paid' | 'mismatch'
type Planned = PlannedTransfer & { kind: Kind; paymentId: string }

function plan(blocks: number, merchants: number): Planned[] {
  return Array.from({ length: blocks }, (_, j) => {
    const m = j % merchants
    const round = Math.floor(j / merchants)
    const to = addressOf(m)
    // Rounds 0-2: a wallet's bare transfer of payment `round`'s exact amount (found by amount).
    if (round < 3) return { to, amount: amountOf(round), kind: 'amount', paymentId: paymentIdOf(m, round) }
    // Round 3: the checkout page's transfer carrying payment 3's reference.
    if (round === 3) {
      const paymentId = paymentIdOf(m, 3)
      return { to, amount: amountOf(3), reference: paymentReference(paymentId), kind: 'reference', paymentId }
    }
    // Round 4: the buyer of payment 0 pays it a second time (payment_already_paid).
    if (round === 4) return { to, amount: amountOf(0), kind: 'already_paid', paymentId: paymentIdOf(m, 0) }
    // Later rounds: other money to the merchant's address, an amount no payment is quoted (amount_mismatch:
    // payment 4 is still open there).
    return { to, amount: 1_000_000n + BigInt(j), kind: 'mismatch', paymentId: paymentIdOf(m, 4) }
  })
}

const REASON: Record<Kind, string | undefined> = {
  amount: undefined,
  reference: undefined,
  already_paid: 'payment_already_paid',
  mismatch: 'amount_mismatch',
}

/** What the watcher should have done with each transfer, against what the database holds; one line per problem. */
async function checkOutcome(db: Database, planned: readonly Planned[], hashes: readonly string[]): Promise<string[]> {
  const bound = new Map(
    (
      await db.query<{ tx_hash: string; payment_id: string; matched_by: string }>(
        'SELECT tx_hash, payment_id, matched_by FROM evm_transfers',
      )
    ).map((row) => [row.tx_hash, row]),
  )
  const recorded = new Map(
    (await db.query<{ tx_hash: string; reason: string }>('SELECT tx_hash, reason FROM evm_unapplied_transfers')).map((row) => [
      row.tx_hash,
      row.reason,
    ]),
  )
  const paidIds = planned.filter((one) => REASON[one.kind] === undefined).map((one) => one.paymentId)
  const statuses = new Map(
    (await db.query<{ id: string; status: string }>('SELECT id, status FROM payments WHERE id = ANY ($1::text[])', [paidIds])).map(
      (row) => [row.id, row.status],
    ),
  )
  const wrong = { unbound: 0, notProcessing: 0, wrongReason: 0, extraBound: 0 }
  planned.forEach((one, index) => {
    const hash = hashes[index] ?? ''
    const reason = REASON[one.kind]
    if (reason === undefined) {
      const row = bound.get(hash)
      if (row?.payment_id !== one.paymentId || row.matched_by !== one.kind) wrong.unbound++
      if (statuses.get(one.paymentId) !== 'processing') wrong.notProcessing++
    } else {
      if (recorded.get(hash) !== reason) wrong.wrongReason++
      if (bound.has(hash)) wrong.extraBound++
    }
  })
  const problems: string[] = []
  if (wrong.unbound > 0) problems.push(`${wrong.unbound} paying transfers not bound to their payment (or matched the wrong way)`)
  if (wrong.notProcessing > 0) problems.push(`${wrong.notProcessing} paid payments not processing`)
  if (wrong.wrongReason > 0) problems.push(`${wrong.wrongReason} other transfers not recorded unapplied with the expected reason`)
  if (wrong.extraBound > 0) problems.push(`${wrong.extraBound} other transfers bound to a payment`)
  const expectedRows = planned.filter((one) => REASON[one.kind] !== undefined).length
  if (recorded.size !== expectedRows) problems.push(`${recorded.size} unapplied rows, ${expectedRows} expected`)
  return problems
}

/** The floor: the token's Transfer logs over the blocks, in `LOG_RANGE`-block ranges, one call after another. */
async function floorRead(client: PublicClient, token: Address, from: bigint, to: bigint) {
  const started = performance.now()
  const blocks = new Map<bigint, number>()
  let logs = 0
  for (let start = from; start <= to; start += BigInt(LOG_RANGE)) {
    const end = start + BigInt(LOG_RANGE) - 1n < to ? start + BigInt(LOG_RANGE) - 1n : to
    const page = await client.getLogs({ address: token, event: TRANSFER_EVENT, fromBlock: start, toBlock: end, strict: true })
    logs += page.length
    for (const one of page) blocks.set(one.blockNumber, (blocks.get(one.blockNumber) ?? 0) + 1)
  }
  return { ms: performance.now() - started, logs, blocks }
}

async function profiled<T>(name: string, work: () => Promise<T>): Promise<{ result: T; file?: string }> {
  if (!PROFILE_DIR) return { result: await work() }
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.start')
  try {
    const result = await work()
    const { profile } = await session.post('Profiler.stop')
    const file = join(PROFILE_DIR, `${name}.cpuprofile`)
    await writeFile(file, JSON.stringify(profile))
    return { result, file }
  } finally {
    session.disconnect()
  }
}

// ---------------------------------------------------------------------------------------------------------

const [load1] = loadavg()
const db = await openDatabase({})
const chains: BenchChain[] = []
let exitCode = 0
const printed: string[] = []
try {
  const accounts = accountStore(db)
  const now = new Date()
  const partner = await accounts.createPartner({ name: 'Bench Partner', pinnedVersion: DEFAULT_API_VERSION, sandbox: true, now })

  // (1) Catch-up.
  log(`watcher: anvil, the token, ${integer.format(MERCHANTS)} merchants with ${PAYMENTS_PER_MERCHANT} open payments each`)
  const chain = await benchChain({ maxLogRange: LOG_RANGE })
  chains.push(chain)
  const token = chain.config.tokens[0]
  if (!token) throw new Error('no token configured')
  const merchants = Array.from({ length: MERCHANTS }, (_, m) => m)
  await seedMerchants(db, partner.id, MERCHANTS, now)
  for (let k = 0; k < PAYMENTS_PER_MERCHANT; k++) await openPayments(db, { partnerId: partner.id, token: token.id, merchants, k, now })
  const planned = plan(BLOCKS, MERCHANTS)
  const mix = (kind: Kind) => planned.filter((one) => one.kind === kind).length
  log(`watcher: ${integer.format(BLOCKS)} transfers, one per block`)
  const sendStarted = performance.now()
  const sent = await sendOnePerBlock(chain, planned)
  const sendMs = performance.now() - sendStarted
  const client = chainClients(chain.anvil.url).public as PublicClient
  // The floor once before the watcher (it checks the chain came out as planned), once after; the better counts.
  const floorBefore = await floorRead(client, chain.token, sent.firstBlock, sent.lastBlock)
  const spanned = Number(sent.lastBlock - sent.firstBlock + 1n)
  if (floorBefore.logs !== BLOCKS || spanned !== BLOCKS || [...floorBefore.blocks.values()].some((count) => count !== 1)) {
    const crowded = [...floorBefore.blocks].filter(([, count]) => count !== 1).slice(0, 5)
    throw new Error(
      `the chain holds ${floorBefore.logs} transfers in ${spanned} blocks (${floorBefore.blocks.size} with any; e.g. ${crowded.map(([block, count]) => `${count} in ${block}`).join(', ')}), not ${BLOCKS}, one per block`,
    )
  }

  await db.query('INSERT INTO evm_watch_cursors (network, next_block, updated_at) VALUES ($1, $2, now())', [
    NETWORK,
    sent.firstBlock.toString(),
  ])
  const catchUpWatcher = watcherOn(db, chain.config, 0)
  for (const one of [...Object.values(meters), database]) one.reset()
  statements.clear()
  log(`watcher: catching up from block ${sent.firstBlock}`)
  const cursors = watchCursors(db)
  const { result: catchUp, file: profileFile } = await profiled('watcher-catch-up', async () => {
    const started = performance.now()
    let passes = 0
    while (((await cursors.position(NETWORK)) ?? 0n) <= sent.lastBlock) {
      if (++passes > 5) throw new Error('the watcher did not reach the head in 5 passes')
      await catchUpWatcher.runOnce()
    }
    return { ms: performance.now() - started, passes }
  })
  const spent = {
    getTransaction: { ...meters.getTransaction.state },
    getLogs: { ...meters.getLogs.state },
    getBlockNumber: { ...meters.getBlockNumber.state },
    query: { ...meters.query.state },
    transaction: { ...meters.transaction.state },
    database: { ...database.state },
  }
  const topStatements = [...statements]
    .map(([label, entry]) => [label, { ...entry }] as const)
    .sort(([, a], [, b]) => b.ms - a.ms)
    .slice(0, 6)
  await catchUpWatcher.stop()
  const floorAfter = await floorRead(client, chain.token, sent.firstBlock, sent.lastBlock)
  const floorMs = Math.min(floorBefore.ms, floorAfter.ms)
  const problems = await checkOutcome(db, planned, sent.hashes)
  await chain.stop()
  chains.pop()

  // (2) Latency: another anvil, mining a block a second; the watcher on its own timer, at its default interval.
  log(`watcher: latency, ${LATENCY_TRANSFERS} transfers one at a time, a block every ${BLOCK_TIME_S} s`)
  const live = await benchChain({ blockTimeSeconds: BLOCK_TIME_S, maxLogRange: LOG_RANGE })
  chains.push(live)
  const liveToken = live.config.tokens[0]
  if (!liveToken) throw new Error('no token configured')
  const payers = Array.from({ length: Math.min(WARMUP + LATENCY_TRANSFERS, MERCHANTS) }, (_, m) => m)
  // More transfers than merchants: a merchant gets a second payment, quoted another amount.
  const rounds = Math.ceil((WARMUP + LATENCY_TRANSFERS) / payers.length)
  const livePayments: { paymentId: string; to: Address; amount: bigint }[] = []
  for (let round = 0; round < rounds; round++) {
    const k = PAYMENTS_PER_MERCHANT + round
    await openPayments(db, { partnerId: partner.id, token: liveToken.id, merchants: payers, k, now: new Date() })
    for (const m of payers) livePayments.push({ paymentId: paymentIdOf(m, k), to: addressOf(m), amount: amountOf(k) })
  }
  livePayments.length = WARMUP + LATENCY_TRANSFERS

  // Processing, as PostgreSQL announces it on the status channel at commit.
  const processingAt = new Map<string, number>()
  const waiting = new Map<string, () => void>()
  const unsubscribe = await db.subscribe(STATUS_CHANNEL, {
    message(payload) {
      const change = JSON.parse(payload) as { id: string; status: string }
      if (change.status !== 'processing' || processingAt.has(change.id)) return
      processingAt.set(change.id, wallNow())
      waiting.get(change.id)?.()
    },
    connected() {},
    lost() {},
  })
  // When each block was first seen: eth_blockNumber every 10 ms (a block's timestamp has whole seconds only).
  const liveRpc = jsonRpc(live.anvil.url)
  const seenAt = new Map<bigint, number>()
  let polling = true
  let highest = BigInt(await liveRpc.call<string>('eth_blockNumber'))
  const poller = (async () => {
    while (polling) {
      const head = BigInt(await liveRpc.call<string>('eth_blockNumber'))
      const at = wallNow()
      for (let block = highest + 1n; block <= head; block++) seenAt.set(block, at)
      if (head > highest) highest = head
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  })()

  // The earlier chain's cursor means nothing on this one: the watcher starts at this chain's head.
  await db.query('DELETE FROM evm_watch_cursors WHERE network = $1', [NETWORK])
  const liveWatcher = watcherOn(db, live.config, DEFAULT_EVM_TIMING.watchIntervalMs)
  liveWatcher.start()
  const latencies: number[] = []
  const byTimestamp: number[] = []
  try {
    let nonce = BigInt(await liveRpc.call<string>('eth_getTransactionCount', [SENDERS[1], 'pending']))
    for (const [index, payment] of livePayments.entries()) {
      // Blocks come every second and the watcher's timer every 500 ms: within one run their phase is fixed,
      // and every transfer would wait the same. Restarted, the timer takes a random phase, as at start-up.
      await liveWatcher.stop()
      liveWatcher.start()
      const processed = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${payment.paymentId} was not processing ${LATENCY_TIMEOUT_MS} ms after its transfer`)),
          LATENCY_TIMEOUT_MS,
        )
        waiting.set(payment.paymentId, () => {
          clearTimeout(timer)
          resolve()
        })
      })
      const hash = await liveRpc.call<string>('eth_sendTransaction', [
        {
          from: SENDERS[1],
          to: live.token,
          data: calldata({ to: payment.to, amount: payment.amount }),
          gas: '0x11170',
          maxFeePerGas: '0x2540be400',
          maxPriorityFeePerGas: '0x1',
          nonce: `0x${(nonce++).toString(16)}`,
        },
      ])
      await processed
      const receipt = await liveRpc.call<{ blockNumber: string; status: string }>('eth_getTransactionReceipt', [hash])
      const block = await liveRpc.call<{ timestamp: string }>('eth_getBlockByNumber', [receipt.blockNumber, false])
      const at = processingAt.get(payment.paymentId) ?? Number.NaN
      // The block may be seen only after the payment is processing, if the poller lost the race: then 0.
      const seen = seenAt.get(BigInt(receipt.blockNumber)) ?? at
      if (index >= WARMUP) {
        latencies.push(Math.max(0, at - seen))
        byTimestamp.push(at - Number(BigInt(block.timestamp)) * 1000)
      }
    }
  } finally {
    polling = false
    await poller
    await liveWatcher.stop()
    await unsubscribe()
  }
  latencies.sort((a, b) => a - b)
  byTimestamp.sort((a, b) => a - b)
  const [p50, p95] = [percentile(latencies, 0.5), percentile(latencies, 0.95)]

  // The table.
  const ratio = catchUp.ms / floorMs
  const mark = (ok: boolean) => (ok ? '✓' : '✗')
  const ranges = Math.ceil(BLOCKS / LOG_RANGE)
  const rows = [
    ['measure', 'figure', 'goal', '', '× floor'],
    [
      `catch-up: ${integer.format(BLOCKS)} blocks, ${integer.format(BLOCKS)} transfers to ${integer.format(MERCHANTS)} merchants`,
      seconds(catchUp.ms),
      `≤ ${CATCH_UP_GOAL}× floor`,
      mark(ratio <= CATCH_UP_GOAL),
      `${ratio.toFixed(1)}×`,
    ],
    [
      `floor: eth_getLogs of the token's Transfers, ${ranges} ranges of ${integer.format(LOG_RANGE)} blocks`,
      seconds(floorMs),
      '',
      '',
      '1.00×',
    ],
    [`block → processing, p50 (${LATENCY_TRANSFERS} transfers, one at a time)`, `${p50.toFixed(0)} ms`, '', '', ''],
    [`block → processing, p95`, `${p95.toFixed(0)} ms`, `≤ ${integer.format(LATENCY_GOAL_MS)} ms`, mark(p95 <= LATENCY_GOAL_MS), ''],
  ]
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? []
  const line = (row: string[]) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')
  const header = line(rows[0] ?? [])
  const share = (ms: number) => `${seconds(ms)} (${((ms / catchUp.ms) * 100).toFixed(0)}%)`
  const other = catchUp.ms - spent.getTransaction.busyMs - spent.getLogs.busyMs - spent.getBlockNumber.busyMs - spent.database.busyMs
  printed.push(
    '',
    `Chain watcher (default embedded engine, anvil on loopback, the watcher in-process; load average ${load1?.toFixed(2)} at the start)`,
    header,
    '-'.repeat(header.length),
    ...rows.slice(1).map(line),
    `mix: ${integer.format(mix('amount'))} transfers pay a payment by its exact amount, ${integer.format(mix('reference'))} by its reference, ` +
      `${integer.format(mix('already_paid'))} pay a paid payment again (payment_already_paid), ${integer.format(mix('mismatch'))} are other ` +
      `amounts (amount_mismatch); ${integer.format(MERCHANTS)} payments left open; ${SENDERS.length} senders; sent and mined in ${seconds(sendMs)}`,
    `catch-up: ${catchUp.passes} pass(es); where its time went (wall time with a call in flight): ` +
      `eth_getTransactionByHash ${integer.format(spent.getTransaction.calls)} calls ${share(spent.getTransaction.busyMs)}, ` +
      `eth_getLogs ${spent.getLogs.calls} calls ${share(spent.getLogs.busyMs)}, ` +
      `database ${integer.format(spent.query.calls)} queries + ${integer.format(spent.transaction.calls)} transactions ${share(spent.database.busyMs)}, ` +
      (other >= 0
        ? `the rest (JavaScript between calls) ${share(other)}`
        : // The next range is read while this one is applied: the shares add up to more than the whole.
          `reads and writes overlapping for ${seconds(-other)} (the next range is read while one is applied)`),
    `catch-up's database time by statement: ${topStatements
      .map(([label, { calls, ms }]) => `"${label}" ${integer.format(calls)}× ${seconds(ms)} (${(ms / calls).toFixed(2)} ms each)`)
      .join('; ')}`,
    `floor: ${seconds(floorBefore.ms)} before the watcher, ${seconds(floorAfter.ms)} after; the watcher reads one block more (it reads the last ${chain.config.networks[0]?.confirmations} again)`,
    `latency: from the block first seen (eth_blockNumber every 10 ms) to the payment's processing NOTIFY; watcher every ` +
      `${DEFAULT_EVM_TIMING.watchIntervalMs} ms, a block every ${BLOCK_TIME_S} s; from the block's whole-second timestamp instead: ` +
      `p50 ${percentile(byTimestamp, 0.5).toFixed(0)} ms, p95 ${percentile(byTimestamp, 0.95).toFixed(0)} ms`,
  )
  printed.push(
    `the whole bench: ${seconds(performance.now() - benchStarted)}, most of it anvil mining ${integer.format(BLOCKS)} blocks and ${LATENCY_TRANSFERS + WARMUP} one-second blocks`,
  )
  if (profileFile)
    printed.push(`profile of the catch-up: ${profileFile} (node --import tsx bench/profile-summary.ts ${profileFile} 20 --all)`)
  for (const problem of problems) printed.push(`!! ${problem}`)
  if (problems.length > 0) exitCode = 1
} catch (error) {
  printed.push(`!! the watcher bench could not measure: ${error instanceof Error ? error.message : String(error)}`)
  exitCode = 1
} finally {
  process.stdout.write(`${printed.join('\n')}\n`)
  for (const chain of chains) await chain.stop()
  await db.close()
}
process.exitCode = exitCode
