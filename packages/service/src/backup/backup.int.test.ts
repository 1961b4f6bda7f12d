// `till backup` and `till restore` (issue 27, point 5) as an operator runs them: a backup of a `till serve
// --data-dir` that keeps serving, restored into a new directory that a second `till serve` then serves the
// same way; and each refusal, which changes nothing.
import { existsSync, statSync } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { MerchantResponse, type TillReadyLine, WebhookEndpointWithSecret, WebhookEvent } from '@till/contract'
import { Webhook } from 'standardwebhooks'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { logoImage, startLogoServer } from '../../test/logo-server.ts'
import { RECEIVER_HOST, startWebhookReceiver } from '../../test/webhook-receiver.ts'
import { runTill, useTillProcesses } from '../cli/till-process.test-helper.ts'

const logos = await startLogoServer()
const receiver = await startWebhookReceiver()
afterAll(async () => {
  await logos.close()
  await receiver.close()
})
const tills = useTillProcesses({ prefix: 'till-backup-', ca: () => `${logos.ca}\n${receiver.ca}` })

// Every `till` here starts or creates a PostgreSQL server: seconds each on a busy 2-core machine.
const PROCESS_TEST_TIMEOUT = 180_000

type Answer = { status: number; text: string }

/** One API call as the sandbox partner; `merchantId` picks another of its merchants than the sandbox one. */
async function call(
  ready: TillReadyLine,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${ready.baseUrl}${path}`, {
    method,
    headers: {
      'api-key': String(ready.apiKey),
      'merchant-id': String(ready.merchantId),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, text: await response.text() }
}

async function ok<T = unknown>(answer: Promise<Answer>): Promise<T> {
  const { status, text } = await answer
  expect(status, text).toBeLessThan(300)
  return JSON.parse(text) as T
}

let orders = 0
const payment = async (ready: TillReadyLine, merchantId = String(ready.merchantId)) =>
  (
    await ok<{ paymentId: string }>(
      call(
        ready,
        'POST',
        '/v1/merchant/payment',
        { amount: { unit: 'iso4217/EUR', value: '1999' }, referenceId: `order-${++orders}` },
        {
          'merchant-id': merchantId,
        },
      ),
    )
  ).paymentId

const simulate = (ready: TillReadyLine, paymentId: string, outcome: string, merchantId = String(ready.merchantId)) =>
  ok(
    call(
      ready,
      'POST',
      `/v1/sandbox/payments/${paymentId}/simulate`,
      { outcome, wallet: { appId: ready.appId, clientId: 'client-1' } },
      {
        'merchant-id': merchantId,
      },
    ),
  )

/** What the restored Till must answer alike: the same JSON, once each server's own address is taken out. */
async function views(ready: TillReadyLine, ids: { teaShop: string; paid: string }): Promise<Record<string, string>> {
  const text = async (path: string, headers: Record<string, string> = {}) => {
    const answer = await call(ready, 'GET', path, undefined, headers)
    expect(answer.status, `${path}: ${answer.text}`).toBe(200)
    return answer.text.replaceAll(ready.baseUrl, 'BASE')
  }
  return {
    listing: await text('/v1/payments?limit=100'),
    succeeded: await text('/v1/payments?limit=100&status=succeeded'),
    teaShop: await text('/v1/merchants/payments?limit=100', { 'merchant-id': ids.teaShop }),
    refunds: await text(`/v1/refunds?paymentId=${ids.paid}`),
    endpoints: await text('/v1/webhook-endpoints'),
  }
}

async function logoBytes(ready: TillReadyLine, iconUrl: string): Promise<Buffer> {
  const response = await fetch(`${ready.baseUrl}${new URL(iconUrl).pathname}`)
  expect(response.status).toBe(200)
  return Buffer.from(await response.arrayBuffer())
}

describe('till backup of a running Till, and till restore', () => {
  it(
    'restores merchants, logos, payments, refunds and webhook endpoints whose secret still signs, as of the backup',
    async () => {
      const dataDir = join(tills.root(), 'data')
      const original = await tills.serve(['--data-dir', dataDir])
      const first = original.ready

      // A merchant with a logo, imported from the logo server.
      logos.serve('/tea.png', await logoImage(600))
      const { merchant: teaShop } = MerchantResponse.parse(
        await ok(
          call(
            first,
            'POST',
            '/v1/merchants',
            { merchantName: 'Till Tea', merchantEmail: 'tea@till.example', iconUrl: logos.url('/tea.png', '127.0.0.1') },
            { 'idempotency-key': 'tea-shop' },
          ),
        ),
      )
      expect(teaShop.iconUrl).not.toBeNull()
      // The child resolves names with the real DNS: the receiver is reached at its IP, which its certificate names.
      const hookUrl = receiver.url().replace(RECEIVER_HOST, '127.0.0.1')
      const { endpoint, secret } = WebhookEndpointWithSecret.parse(await ok(call(first, 'POST', '/v1/webhook-endpoints', { url: hookUrl })))

      // Payments in every state, paid through the sandbox's wallet app (buyers, stats), and a refund paid.
      const paid = await payment(first)
      await simulate(first, paid, 'succeeded')
      await simulate(first, await payment(first), 'failed')
      await ok(call(first, 'POST', `/v1/merchant/payment/${await payment(first)}/cancel`, {}))
      const open = await payment(first)
      await simulate(first, await payment(first, teaShop.id), 'succeeded', teaShop.id)
      const refund = await ok<{ id: string }>(
        call(first, 'POST', '/v1/refunds', { paymentId: paid, amount: '500', reason: 'A broken cup' }, { 'idempotency-key': 'refund-1' }),
      )
      await ok(call(first, 'POST', `/v1/sandbox/refunds/${refund.id}/simulate`, { outcome: 'succeeded' }))
      await ok(call(first, 'POST', '/v1/refunds', { paymentId: paid, amount: '100' }, { 'idempotency-key': 'refund-2' }))

      const ids = { teaShop: teaShop.id, paid }
      const before = await views(first, ids)
      const logo = await logoBytes(first, teaShop.iconUrl ?? '')

      // While Till serves: it connects to Till's own server.
      const file = join(tills.root(), 'till.backup')
      const backup = await runTill(['backup', '--data-dir', dataDir, '--out', file, '--json'])
      expect(backup.code, backup.stderr).toBe(0)
      expect(JSON.parse(backup.stdout)).toMatchObject({ file, dataDir, whileRunning: true, rows: expect.any(Number) })
      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect((await readdir(tills.root())).filter((name) => name.endsWith('.tmp'))).toEqual([])
      // Written after the backup: not in it.
      const later = await payment(first)
      expect((await call(first, 'GET', '/v1/payments?limit=100')).text).toContain(later)

      const restoredDir = join(tills.root(), 'restored')
      const restore = await runTill(['restore', '--data-dir', restoredDir, '--from', file])
      expect(restore.code, restore.stderr).toBe(0)
      expect(restore.stdout).toContain(`Start it with: till serve --data-dir ${restoredDir}`)

      // The sandbox key is kept, so the same calls are made with it, for the same merchant (a sandbox start
      // names the partner's newest merchant, the tea shop by now).
      const restarted = await tills.serve(['--data-dir', restoredDir, '--sandbox-api-key', String(first.apiKey)])
      const second = { ...restarted.ready, merchantId: first.merchantId }
      expect(await views(second, ids)).toEqual(before)
      expect(before.listing).not.toContain(later)
      expect(before.refunds).toContain(refund.id)
      expect(before.endpoints).toContain(endpoint.id)
      expect(await logoBytes(second, teaShop.iconUrl ?? '')).toEqual(logo)

      // The restored Till signs with the secret the endpoint was given before the backup.
      await simulate(second, open, 'succeeded')
      const delivered = await vi.waitFor(
        () => {
          const found = receiver.received.find((received) => received.body.includes(open) && received.body.includes('payment.succeeded'))
          if (!found) throw new Error(`no payment.succeeded of ${open} delivered yet`)
          return found
        },
        { timeout: 30_000, interval: 50 },
      )
      const event = WebhookEvent.parse(new Webhook(secret).verify(delivered.body, delivered.headers))
      expect(event).toMatchObject({ type: 'payment.succeeded', data: { paymentId: open } })
      expect(await restarted.stop()).toBe(0)
      expect(await original.stop()).toBe(0)
    },
    PROCESS_TEST_TIMEOUT,
  )

  it(
    'backs up a stopped data directory, and refuses to restore over data, a newer schema, or a damaged file, leaving nothing',
    async () => {
      const dataDir = join(tills.root(), 'stopped')
      const created = await runTill(['partner', 'create', '--data-dir', dataDir, '--name', 'Acme', '--json'])
      expect(created.code, created.stderr).toBe(0)
      const { partnerId } = JSON.parse(created.stdout) as { partnerId: string }
      const file = join(tills.root(), 'stopped.backup')
      const backup = await runTill(['backup', '--data-dir', dataDir, '--out', file, '--json'])
      expect(backup.code, backup.stderr).toBe(0)
      expect(JSON.parse(backup.stdout)).toMatchObject({ whileRunning: false })

      // Over a directory holding data: exit 2, and how to restore instead.
      const over = await runTill(['restore', '--data-dir', dataDir, '--from', file])
      expect(over.code).toBe(2)
      expect(over.stderr).toContain(`${dataDir} already holds a Till database, and a restore never writes over data`)
      expect(over.stderr).toContain(`mv ${dataDir} ${dataDir}.old`)

      const target = join(tills.root(), 'never')
      const nothingLeft = async () => {
        expect(existsSync(target)).toBe(false)
        expect((await readdir(tills.root())).filter((name) => name.startsWith('never'))).toEqual([])
      }
      const whole = await readFile(file)
      const [header = '', ...body] = gunzipSync(whole).toString('utf8').split('\n')
      const restoreFrom = async (name: string, content: Buffer) => {
        await writeFile(join(tills.root(), name), content)
        return runTill(['restore', '--data-dir', target, '--from', join(tills.root(), name)])
      }

      // Cut short after its header (gzip members concatenate): the rows fail to load, the directory being built goes.
      const cut = Buffer.concat([gzipSync(`${header}\n`), gzipSync(body.join('\n')).subarray(0, 20)])
      const truncated = await restoreFrom('cut.backup', cut)
      expect(truncated.code).toBe(1)
      expect(truncated.stderr).toContain('cut.backup is damaged or incomplete (unexpected end of file): nothing was restored')
      await nothingLeft()
      // Whole as gzip, but without its last line.
      const short = await restoreFrom('short.backup', gzipSync([header, ...body.slice(0, -2)].join('\n')))
      expect(short.code).toBe(1)
      expect(short.stderr).toContain('short.backup is damaged or incomplete (it ends before its last line): nothing was restored')
      await nothingLeft()
      // Cut anywhere.
      const half = await restoreFrom('half.backup', whole.subarray(0, Math.floor(whole.length / 2)))
      expect(half.code).toBe(1)
      expect(half.stderr).toMatch(/half\.backup is (damaged or )?incomplete \(unexpected end of file\): nothing was restored/)
      await nothingLeft()

      // A backup of a later schema than this Till knows.
      const future = { ...JSON.parse(header), migrations: [...JSON.parse(header).migrations, '9999_from_the_future.sql'] }
      const newer = await restoreFrom('newer.backup', gzipSync([JSON.stringify(future), ...body].join('\n')))
      expect(newer.code).toBe(2)
      expect(newer.stderr).toMatch(/newer\.backup was made by a newer Till: its schema includes 9999_from_the_future\.sql/)
      await nothingLeft()

      // Not a backup at all.
      const notBackup = await restoreFrom('notes.txt', Buffer.from('not a backup\n'))
      expect(notBackup.code).toBe(2)
      expect(notBackup.stderr).toContain('notes.txt is not a Till backup')
      await nothingLeft()

      // An empty directory is fine, and the backup of a stopped directory restores.
      await mkdir(target)
      const restored = await runTill(['restore', '--data-dir', target, '--from', file, '--json'])
      expect(restored.code, restored.stderr).toBe(0)
      expect(JSON.parse(restored.stdout)).toMatchObject({ dataDir: target, rows: expect.any(Number) })
      const key = await runTill(['api-key', 'create', '--data-dir', target, '--partner', partnerId])
      expect(key.code, key.stderr).toBe(0)
      expect(key.stdout).toContain(`API key for ${partnerId}`)
    },
    PROCESS_TEST_TIMEOUT,
  )

  it('says what it needs, and where an external server is backed up', async () => {
    const help = await runTill(['backup', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: till backup --data-dir DIR --out FILE')
    const missing = await runTill(['backup', '--out', join(tills.root(), 'x.backup')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('pg_dump')
    const empty = await runTill(['backup', '--data-dir', join(tills.root(), 'nothing-here'), '--out', join(tills.root(), 'x.backup')])
    expect(empty.code).toBe(2)
    expect(empty.stderr).toContain('holds no Till database')
  })
})
