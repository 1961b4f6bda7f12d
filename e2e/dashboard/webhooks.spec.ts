// The shop's owner adds a webhook endpoint the test runs, sends it a signed test event, sees a failed
// delivery attempt with its status and the request as sent, and redelivers it once the endpoint is back.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { localhostCertificate } from '@till/demo/certificate'
import { expectNoAxeViolations } from '../axe.ts'
import { startTill, type Till } from '../fixtures.ts'
import { shoot } from './screenshots.ts'

type Received = { headers: Record<string, string>; body: string }
let till: Till
let stop: () => Promise<void>
let receiver: Server
let hookUrl: string
let caDir: string
const received: Received[] = []
const answers: number[] = []
test.beforeAll(async () => {
  // The shop's endpoint: HTTPS on loopback (the sandbox allows it), with a certificate Till trusts for this run.
  const { key, cert } = await localhostCertificate()
  receiver = createServer({ key, cert }, (request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({ headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') })
      response.writeHead(answers.shift() ?? 200).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  hookUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/pay/webhooks`
  caDir = await mkdtemp(path.join(tmpdir(), 'till-e2e-ca-'))
  await writeFile(path.join(caDir, 'ca.pem'), cert)
  ;({ till, stop } = await startTill([], { env: { NODE_EXTRA_CA_CERTS: path.join(caDir, 'ca.pem') } }))
})
test.afterAll(async () => {
  await stop()
  receiver.closeAllConnections()
  await new Promise((resolve) => receiver.close(resolve))
  await rm(caDir, { recursive: true, force: true })
})

/** Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes. */
function signedBy(secret: string, delivery: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const content = `${delivery.headers['webhook-id']}.${delivery.headers['webhook-timestamp']}.${delivery.body}`
  const expected = Buffer.from(`v1,${createHmac('sha256', key).update(content).digest('base64')}`)
  return (delivery.headers['webhook-signature'] ?? '').split(' ').some((given) => {
    const bytes = Buffer.from(given)
    return bytes.length === expected.length && timingSafeEqual(bytes, expected)
  })
}

test('the owner adds an endpoint, sends a test event, sees a failed attempt, and redelivers it', async ({ page }) => {
  await page.clock.install()
  await page.goto(till.dashboardInviteUrl ?? '')
  await page.getByLabel('Choose a password').fill('plum-orbit-violet-kettle')
  await page.getByRole('button', { name: 'Create my account' }).click()
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()
  await page.getByRole('link', { name: 'Webhooks' }).click()
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible()

  await page.getByLabel('URL').fill(hookUrl)
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  const shown = page.getByRole('region', { name: `Signing secret for ${hookUrl}` })
  await expect(shown).toContainText('Copy it now: it will not be shown again.')
  const secret = (await shown.getByRole('code').textContent()) ?? ''
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: hookUrl }) })
  await expect(row).toContainText('All events')
  await expectNoAxeViolations(page, 'the Webhooks page')

  // A signed test event, about no payment.
  await row.getByRole('button', { name: `Send a test event to ${hookUrl}` }).click()
  await expect.poll(() => received.length).toBe(1)
  const [ping] = received
  expect(ping && signedBy(secret, ping)).toBe(true)
  expect(JSON.parse(ping?.body ?? '{}')).toMatchObject({ type: 'ping', data: { paymentId: null } })

  // The shop's server fails the next one.
  answers.push(500)
  await row.getByRole('button', { name: `Send a test event to ${hookUrl}` }).click()
  await expect.poll(() => received.length).toBe(2)
  await row.getByRole('button', { name: `Deliveries to ${hookUrl}` }).click()
  await expect(page.getByRole('heading', { name: `Deliveries to ${hookUrl}` })).toBeFocused()
  await page.getByLabel('Failed only').check()
  const deliveries = page.getByRole('region', { name: `Deliveries to ${hookUrl}` })
  await expect(deliveries.getByRole('heading', { level: 3 })).toHaveCount(1)
  await expect(deliveries).toContainText(/HTTP 500 in \d+ ms/)
  await deliveries.getByText('Request as sent').click()
  await expect(deliveries.getByText(`webhook-id: ${received[1]?.headers['webhook-id']}`)).toBeVisible()
  await shoot(page, 'dashboard-webhooks')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectNoAxeViolations(page, 'the Webhooks page with a failed delivery, dark')
  await page.emulateMedia({ colorScheme: 'light' })

  await deliveries.getByRole('button', { name: /^Redeliver ping / }).click()
  await expect.poll(() => received.length).toBe(3)
  expect(received[2]?.headers['webhook-id']).toBe(received[1]?.headers['webhook-id'])
  // Read again (Till records the attempt once the answer is in): the failed delivery's second attempt, delivered.
  await expect(async () => {
    await page.getByLabel('Failed only').uncheck()
    await page.getByLabel('Failed only').check()
    await expect(deliveries).toContainText(/HTTP 200 in \d+ ms/, { timeout: 1_000 })
  }).toPass()

  await page.getByRole('link', { name: 'Audit log' }).click()
  await expect(page.getByRole('cell', { name: 'webhook test sent' }).first()).toBeVisible()
  await expect(page.getByRole('cell', { name: 'webhook redelivered' })).toBeVisible()
})
