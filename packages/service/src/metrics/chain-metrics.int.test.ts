// The chain jobs' metrics on a real local chain (anvil): the watcher's lag behind the head, the transactions
// the follower follows, and the RPC calls that fail, by network and job.
import { afterEach, beforeEach, expect, it } from 'vitest'
import { HAND_TIMING, handFollower, handWatcher, payOnLocalChain, receiveOnLocalChain, useLocalChain } from '../../test/evm-fixtures.ts'
import { type Account, createAccount, testApp, testClock, useTestDatabase } from '../../test/fixtures.ts'
import { parseEvmConfig } from '../evm/config.ts'
import { tillMetrics } from './catalog.ts'
import { databaseSource } from './database.ts'
import { chainObserver } from './observers.ts'
import { parseScrape } from './scrape.test-helper.ts'

const chain = useLocalChain(2)
const ctx = useTestDatabase()
const clock = testClock()
const NETWORK = 'eip155:31337'
let metrics: ReturnType<typeof tillMetrics>
let app: Awaited<ReturnType<typeof testApp>>
let account: Account
beforeEach(async () => {
  metrics = tillMetrics()
  app = await testApp(ctx.tdb.db, { clock, metrics, evm: { config: chain.config, timing: HAND_TIMING } })
  account = await createAccount(ctx.tdb.db)
  await receiveOnLocalChain(ctx.tdb.db, account)
})
afterEach(() => app.close())
const read = async () => parseScrape(await metrics.registry.metrics())

const processingPayment = () => payOnLocalChain(app, chain, account)

it("shows the watcher's lag behind the head while another instance holds the network and has not read on", async () => {
  const reading = handWatcher(ctx.tdb.db, clock, chain.config, { observe: chainObserver(metrics) })
  await reading.runOnce()
  expect((await read()).value('till_chain_watcher_lag_blocks', { network: NETWORK })).toBe(0)

  // Four blocks later, an instance that sees the new head but not the lease (held for a minute more).
  await chain.clients.test.mine({ blocks: 4 })
  const other = tillMetrics()
  other.readFrom(databaseSource(ctx.tdb.db))
  await handWatcher(ctx.tdb.db, clock, chain.config, { observe: chainObserver(other) }).runOnce()
  expect(parseScrape(await other.registry.metrics()).value('till_chain_watcher_lag_blocks', { network: NETWORK })).toBe(4)

  // The holder reads on: no lag.
  await reading.runOnce()
  expect((await read()).value('till_chain_watcher_lag_blocks', { network: NETWORK })).toBe(0)
})

it('counts the transactions followed until their confirmations, by network', async () => {
  // Seen by this instance's watcher once, so the network is known even when nothing is followed.
  await handWatcher(ctx.tdb.db, clock, chain.config, { observe: chainObserver(metrics) }).runOnce()
  await processingPayment()
  await processingPayment()
  expect((await read()).value('till_chain_follower_watches', { network: NETWORK })).toBe(2)
  await chain.clients.test.mine({ blocks: 2 })
  await handFollower(ctx.tdb.db, clock, chain.config).runOnce()
  expect((await read()).value('till_chain_follower_watches', { network: NETWORK })).toBe(0)
})

it('counts the RPC calls that fail, by network and job', async () => {
  await processingPayment()
  // The same network behind an RPC that refuses every connection.
  const down = parseEvmConfig(
    {
      networks: [{ id: NETWORK, rpcUrl: 'http://127.0.0.1:9/', confirmations: 2 }],
      tokens: [{ id: `${NETWORK}/erc20:${chain.usdc}`, symbol: 'USDC', name: 'USD Coin', decimals: 6, peg: 'USD' }],
      rates: { fixed: [{ from: 'EUR', to: 'USDC', rate: '1.0842' }] },
    },
    'test',
  )
  const observe = chainObserver(metrics)
  await handWatcher(ctx.tdb.db, clock, down, { observe }).runOnce()
  await handFollower(ctx.tdb.db, clock, down, HAND_TIMING, observe).runOnce()
  const now = await read()
  expect(now.value('till_chain_rpc_errors_total', { network: NETWORK, job: 'watcher' })).toBe(1)
  expect(now.value('till_chain_rpc_errors_total', { network: NETWORK, job: 'follower' })).toBe(1)
})
