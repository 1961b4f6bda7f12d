import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { runTill, startTill } from './till-process.test-helper.ts'

// Each `till` process opens its own PGlite (seconds each on a busy 2-core machine).
const PROCESS_TEST_TIMEOUT = 90_000

const body = (referenceId: string) => JSON.stringify({ amount: { unit: 'iso4217/EUR', value: '1250' }, referenceId })

describe('till --help', () => {
  it('lists the commands', async () => {
    const { code, stdout } = await runTill(['--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/serve[\s\S]*partner create[\s\S]*api-key create[\s\S]*merchant create[\s\S]*app create/)
  })

  it.each([['serve'], ['partner', 'create'], ['merchant', 'create'], ['api-key', 'create'], ['migrate']])(
    'has help for %s',
    async (...words) => {
      const { code, stdout } = await runTill([...words, '--help'])
      expect(code).toBe(0)
      expect(stdout).toContain(`Usage: till ${words.join(' ')}`)
    },
  )
})

describe('bad usage fails loudly and says how to fix it', () => {
  it.each([
    [['serve', '--port', 'abc'], /--port \(or TILL_PORT\): must be a whole number/],
    [['serve', '--port', '70000'], /--port .*must be at most 65535/],
    [['serve', '--bogus'], /Unknown option '--bogus'[\s\S]*till serve --help/],
    [['serve', '--data-dir', '/tmp/x', '--database-url', 'postgres://127.0.0.1/x'], /not both/],
    [['serve', '--database-url', 'mysql://x'], /must be a PostgreSQL URL/],
    [['serve', '--payment-ttl', '5'], /--payment-ttl .*at least 10/],
    [['serve', '--sandbox-api-key', 'till_sk_test_x'], /only makes sense with --sandbox/],
    [['partner', 'create', '--name', 'Acme'], /say which database to change/],
    [['merchant', 'create', '--data-dir', '/tmp/x', '--partner', 'p', '--name', 'n', '--email', 'nope'], /--email.*e-mail address/],
    [['frobnicate'], /Unknown command "frobnicate"/],
  ])('till %j', async (args, message) => {
    const { code, stderr } = await runTill(args)
    expect(code).toBe(2)
    expect(stderr).toMatch(message)
  })

  it(
    'stops at start-up when the replica it was given does not answer, and says which',
    async () => {
      const { code, stderr } = await runTill(['serve', '--port', '0', '--replica-database-url', 'postgres://till@127.0.0.1:9/till'])
      expect(code).toBe(1)
      expect(stderr).toMatch(/the replica at --replica-database-url does not answer/)
    },
    PROCESS_TEST_TIMEOUT,
  )

  it('reads the environment too, and names the variable', async () => {
    const { code, stderr } = await runTill(['serve'], { TILL_PORT: 'eighty' })
    expect(code).toBe(2)
    expect(stderr).toMatch(/TILL_PORT/)
  })
})

describe('operators onboard a partner and a merchant, and the service keeps its data', () => {
  let dataDir: string
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'till-cli-'))
  })
  afterAll(() => rm(dataDir, { recursive: true, force: true }))

  it(
    'creates a partner, shows its key once, creates a merchant, serves them across a restart',
    async () => {
      const partner = await runTill(['partner', 'create', '--name', 'Acme Payments', '--data-dir', dataDir, '--json'])
      expect(partner.code, partner.stderr).toBe(0)
      const { partnerId, apiKey } = JSON.parse(partner.stdout) as { partnerId: string; apiKey: string }
      expect(apiKey).toMatch(/^till_sk_live_/)

      const merchant = await runTill([
        'merchant',
        'create',
        '--partner',
        partnerId,
        '--name',
        'Corner Shop',
        '--email',
        'shop@example.com',
        '--data-dir',
        dataDir,
        '--json',
      ])
      expect(merchant.code, merchant.stderr).toBe(0)
      const { merchantId } = JSON.parse(merchant.stdout) as { merchantId: string }
      // The API's rules, logo import included: a loopback logo host is refused outside sandbox, as over HTTP.
      const withLogo = await runTill([
        ...['merchant', 'create', '--partner', partnerId, '--name', 'Logo Shop', '--email', 'logo@example.com'],
        ...['--icon-url', 'https://127.0.0.1:9/logo.png', '--data-dir', dataDir],
      ])
      expect(withLogo.code).toBe(1)
      expect(withLogo.stderr).toContain('iconUrl: 127.0.0.1 is not a public address (loopback)')

      const app = await runTill(['app', 'create', '--partner', partnerId, '--name', 'Pocket Wallet', '--data-dir', dataDir, '--json'])
      expect(app.code, app.stderr).toBe(0)
      const { appId } = JSON.parse(app.stdout) as { appId: string }
      expect(appId).toMatch(/^app_/)

      const first = await startTill(['--data-dir', dataDir])
      // The line as printed, not as parsed: no credentials, nothing else either.
      expect(Object.keys(JSON.parse(first.stdout()) as object).sort()).toEqual(['baseUrl', 'checkoutUrl'])
      const headers = { 'api-key': apiKey, 'merchant-id': merchantId, 'content-type': 'application/json' }
      const created = await fetch(`${String(first.ready.baseUrl)}/v1/merchant/payment`, { method: 'POST', headers, body: body('order-1') })
      expect(created.status).toBe(201)
      const { paymentId, gatewayUrl } = (await created.json()) as { paymentId: string; gatewayUrl: string }
      expect(gatewayUrl).toBe(`${String(first.ready.checkoutUrl)}/${paymentId}`)
      expect(await first.stop()).toBe(0)
      // Logs never carry the key.
      expect(first.stderr()).not.toContain(apiKey)

      const second = await startTill(['--data-dir', dataDir])
      const status = await fetch(`${String(second.ready.baseUrl)}/v1/merchant/payment/${paymentId}/status`, { headers })
      expect(await status.json()).toEqual({ status: 'pending', isFinal: false })
      const walletView = await fetch(`${String(second.ready.baseUrl)}/v1/payments`, { headers: { 'app-id': appId, 'client-id': 'c-1' } })
      expect(walletView.status).toBe(200)
      expect(((await walletView.json()) as { stats: unknown }).stats).toEqual({ totalRevenue: [], totalTransactions: 0, totalCustomers: 0 })
      expect(await second.stop()).toBe(0)
    },
    PROCESS_TEST_TIMEOUT,
  )
})

describe('till serve on SIGTERM', () => {
  it(
    'answers 503 to its health checks for the drain time while it still serves, and a second signal ends it',
    async () => {
      // A drain far longer than the test: what is checked happens during it, whatever the machine's speed.
      const till = await startTill(['--sandbox', '--drain-ms', '600000'])
      const base = String(till.ready.baseUrl)
      expect((await fetch(`${base}/readyz`)).status).toBe(200)
      till.kill('SIGTERM')
      await vi.waitFor(async () => expect((await fetch(`${base}/readyz`)).status).toBe(503))
      expect((await fetch(`${base}/healthz`)).status).toBe(503)
      const headers = {
        'api-key': String(till.ready.apiKey),
        'merchant-id': String(till.ready.merchantId),
        'content-type': 'application/json',
      }
      const created = await fetch(`${base}/v1/merchant/payment`, { method: 'POST', headers, body: body('order-during-drain') })
      expect(created.status).toBe(201)
      till.kill('SIGTERM')
      expect(await till.exited()).toBe(130)
    },
    PROCESS_TEST_TIMEOUT,
  )
})

describe('till serve --metrics-port', () => {
  it(
    "serves the process's metrics on a loopback listener of their own, never on the public port",
    async () => {
      const till = await startTill(['--sandbox', '--metrics-port', '0'])
      try {
        const base = String(till.ready.baseUrl)
        const metricsUrl = String(till.ready.metricsUrl)
        expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
        expect(new URL(metricsUrl).port).not.toBe(new URL(base).port)
        const headers = {
          'api-key': String(till.ready.apiKey),
          'merchant-id': String(till.ready.merchantId),
          'content-type': 'application/json',
        }
        expect((await fetch(`${base}/v1/merchant/payment`, { method: 'POST', headers, body: body('order-metrics') })).status).toBe(201)
        const text = await (await fetch(metricsUrl)).text()
        expect(text).toContain('till_http_requests_total{method="POST",route="/v1/merchant/payment",status="201"} 1')
        expect(text).toContain('till_payments_created_total 1')
        expect(text).toMatch(/^process_resident_memory_bytes \d+/m)
        expect((await fetch(`${base}/metrics`)).status).toBe(404)
      } finally {
        expect(await till.stop()).toBe(0)
      }
    },
    PROCESS_TEST_TIMEOUT,
  )
})

describe('till serve --sandbox --json', () => {
  it(
    'prints one JSON line with the sandbox credentials, and they work',
    async () => {
      const till = await startTill(['--sandbox'])
      try {
        expect(Object.keys(JSON.parse(till.stdout()) as object).sort()).toEqual([
          'apiKey',
          'appId',
          'baseUrl',
          'checkoutUrl',
          'dashboardInviteUrl',
          'merchantId',
          'version',
        ])
        expect(till.ready).toMatchObject({ version: '2026-02-18', checkoutUrl: `${String(till.ready.baseUrl)}/checkout` })
        // The sandbox owner's invitation, on the host name passkeys accept for a loopback address.
        const port = new URL(String(till.ready.baseUrl)).port
        expect(String(till.ready.dashboardInviteUrl)).toMatch(new RegExp(`^http://localhost:${port}/dashboard/invitation#[0-9a-z]{52}$`))
        const headers = {
          'api-key': String(till.ready.apiKey),
          'merchant-id': String(till.ready.merchantId),
          'content-type': 'application/json',
        }
        const created = await fetch(`${String(till.ready.baseUrl)}/v1/merchant/payment`, { method: 'POST', headers, body: body('order-2') })
        const { paymentId } = (await created.json()) as { paymentId: string }
        const simulated = await fetch(`${String(till.ready.baseUrl)}/v1/sandbox/payments/${paymentId}/simulate`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ outcome: 'succeeded' }),
        })
        expect(simulated.status).toBe(200)
        // The sandbox's wallet app lists nothing for a client that paid nothing through it.
        const walletView = await fetch(`${String(till.ready.baseUrl)}/v1/payments`, {
          headers: { 'app-id': String(till.ready.appId), 'client-id': 'nobody' },
        })
        expect(((await walletView.json()) as { data: unknown[] }).data).toEqual([])
        expect(till.stdout().trim().split('\n')).toHaveLength(1)
        expect(till.stderr()).not.toContain(String(till.ready.apiKey))
      } finally {
        expect(await till.stop()).toBe(0)
      }
    },
    PROCESS_TEST_TIMEOUT,
  )
})
