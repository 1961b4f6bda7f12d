// The chain jobs across three `till serve` processes on one PostgreSQL, with a real local chain (anvil): a
// buyer's phone wallet pays each payment's request with a plain transfer, which only the chain watcher can
// find, and the follower confirms it. One instance is killed with SIGKILL and another stopped with SIGTERM
// while payments are being paid. Each payment must be bound to its transfer once and succeed once, whichever
// instance's watcher and follower did it (a killed watcher's lease passes to another within a minute).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEV_WALLET_INDEX, parsePaymentRequest, payRequest, startTillLocalChain, type TillLocalChain } from '@till/devchain'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type ServedTill, useTillProcesses } from '../src/cli/till-process.test-helper.ts'
import { createBody, openTestDatabase, type TestDatabase } from './fixtures.ts'

const PAYMENTS = 12

let dir: string
let chain: TillLocalChain
let tdb: TestDatabase
const tills = useTillProcesses({ prefix: 'till-chain-', ca: () => '' })
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'till-chain-instances-'))
  chain = await startTillLocalChain({ dir, confirmations: 1, devWallet: false })
  tdb = await openTestDatabase()
}, 60_000)
afterAll(async () => {
  await chain?.stop()
  await tdb?.close()
  await rm(dir, { recursive: true, force: true })
})

async function call(till: ServedTill, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${String(till.ready.baseUrl)}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'api-key': String(till.ready.apiKey),
      'merchant-id': String(till.ready.merchantId),
      'content-type': 'application/json',
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  })
  const text = await response.text()
  expect(response.ok, `${path}: ${response.status} ${text}`).toBe(true)
  return text
}

/** What a phone wallet scanning the checkout page's QR code is given: the payment request of its first option. */
async function paymentRequestOf(till: ServedTill, paymentId: string) {
  const page = await call(till, `/checkout/${paymentId}`)
  const data = /<script type="application\/json" id="checkout-data">([^<]*)<\/script>/.exec(page)?.[1] ?? '{}'
  const { token } = JSON.parse(data) as { token: string }
  const options = JSON.parse(await call(till, `/checkout/api/payments/${paymentId}/options`, { headers: { 'checkout-token': token } })) as {
    options: { paymentRequest: string }[]
  }
  return parsePaymentRequest(options.options[0]?.paymentRequest ?? '')
}

it('binds and confirms each payment once while one instance is killed and another stopped', async () => {
  const common = ['--database-url', tdb.url, '--config', chain.configFile]
  const instances = await tills.serveSharing(3, common)
  const first = instances[0] as ServedTill
  await call(first, `/v1/merchants/${String(first.ready.merchantId)}`, {
    method: 'PATCH',
    body: { settlementAddresses: [chain.merchantAccount] },
  })

  const alive = new Set(instances)
  const paid: string[] = []
  for (let index = 0; index < PAYMENTS; index++) {
    if (index === PAYMENTS / 3) {
      instances[0]?.kill('SIGKILL')
      alive.delete(instances[0] as ServedTill)
    }
    if (index === (2 * PAYMENTS) / 3) {
      alive.delete(instances[1] as ServedTill)
      expect(await instances[1]?.stop('SIGTERM')).toBe(0)
    }
    const till = [...alive][index % alive.size] as ServedTill
    const created = JSON.parse(
      await call(till, '/v1/merchant/payment', { method: 'POST', body: createBody({ referenceId: `chain-${index}` }) }),
    ) as {
      paymentId: string
    }
    // The dev account the local chain funds with USDC pays, as a phone wallet would: a plain transfer.
    await payRequest(await paymentRequestOf(till, created.paymentId), { rpcUrl: chain.anvil.url, from: DEV_WALLET_INDEX })
    paid.push(created.paymentId)
  }

  // The watcher on whichever instance holds the network finds each transfer; a follower confirms it.
  const succeeded = async () =>
    Number(
      (await tdb.db.query<{ n: string }>(`SELECT count(*) AS n FROM payments WHERE id = ANY ($1) AND status = 'succeeded'`, [paid]))[0]?.n,
    )
  await expect.poll(succeeded, { timeout: 120_000, interval: 250 }).toBe(PAYMENTS)

  const movedTwice = await tdb.db.query(
    `SELECT payment_id, to_status FROM payment_transitions WHERE payment_id = ANY ($1) GROUP BY 1, 2 HAVING count(*) > 1`,
    [paid],
  )
  expect(movedTwice).toEqual([])
  const [bound] = await tdb.db.query<{ transfers: string; hashes: string }>(
    'SELECT count(*) AS transfers, count(DISTINCT tx_hash) AS hashes FROM evm_transfers WHERE payment_id = ANY ($1)',
    [paid],
  )
  expect(bound).toEqual({ transfers: String(PAYMENTS), hashes: String(PAYMENTS) })
  const [{ unapplied } = { unapplied: '' }] = await tdb.db.query<{ unapplied: string }>(
    'SELECT count(*) AS unapplied FROM evm_unapplied_transfers',
  )
  expect(Number(unapplied)).toBe(0)
  const [{ watching } = { watching: '' }] = await tdb.db.query<{ watching: string }>('SELECT count(*) AS watching FROM evm_watches')
  expect(Number(watching)).toBe(0)
  console.log(
    `[chain instances] ${PAYMENTS} payments paid by plain transfers across 3 instances (one killed, one stopped): ` +
      `succeeded ${await succeeded()}, transitions repeated ${movedTwice.length}, transfers bound ${bound?.transfers}, unapplied ${unapplied}`,
  )
}, 240_000)
