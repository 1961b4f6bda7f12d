// The shop's owner adds a merchant in the dashboard with a logo the test serves over HTTPS, is told why a
// receiving account without its checksum is refused, and saves it written as the wallet shows it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { localhostCertificate } from '@till/demo/certificate'
import { renderLogo } from '@till/demo/logo'
import { expectNoAxeViolations } from '../axe.ts'
import { startTill, type Till } from '../fixtures.ts'
import { shoot } from './screenshots.ts'

let till: Till
let stop: () => Promise<void>
let logos: Server
let logoUrl: string
let caDir: string
test.beforeAll(async () => {
  // The logo's host: HTTPS on loopback (the sandbox allows it), with a certificate Till trusts for this run.
  const { key, cert } = await localhostCertificate()
  const png = await renderLogo()
  logos = createServer({ key, cert }, (_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(png))
  await new Promise<void>((resolve) => logos.listen(0, '127.0.0.1', resolve))
  logoUrl = `https://127.0.0.1:${(logos.address() as AddressInfo).port}/kiosk.png`
  caDir = await mkdtemp(path.join(tmpdir(), 'till-e2e-ca-'))
  await writeFile(path.join(caDir, 'ca.pem'), cert)
  ;({ till, stop } = await startTill([], { env: { NODE_EXTRA_CA_CERTS: path.join(caDir, 'ca.pem') } }))
})
test.afterAll(async () => {
  await stop()
  logos.closeAllConnections()
  await new Promise((resolve) => logos.close(resolve))
  await rm(caDir, { recursive: true, force: true })
})

// Anvil's second dev account, as a wallet shows it, and the same address with its checksum lost.
const ACCOUNT = 'eip155:8453:0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

test('the owner adds a merchant with its logo and sets where it is paid', async ({ page }) => {
  await page.clock.install()
  await page.goto(till.dashboardInviteUrl ?? '')
  await page.getByLabel('Choose a password').fill('plum-orbit-violet-kettle')
  await page.getByRole('button', { name: 'Create my account' }).click()
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()
  await page.getByRole('link', { name: 'Merchants' }).click()
  await expect(page.getByRole('heading', { name: 'Merchants', level: 1 })).toBeVisible()

  // A logo Till cannot import is refused beside its field, in the API's words.
  const form = page.getByRole('form', { name: 'New merchant' })
  await form.getByLabel('Name').fill('Kiosk')
  await form.getByLabel('Email').fill('kiosk@shop.example')
  await form.getByLabel('Logo URL (optional)').fill('http://127.0.0.1:9/kiosk.png')
  await form.getByRole('button', { name: 'Create merchant' }).click()
  const api = await page.request.post(`${till.baseUrl}/v1/merchants`, {
    headers: { 'api-key': till.apiKey, 'idempotency-key': 'e2e-refused-logo' },
    data: { merchantName: 'Kiosk', merchantEmail: 'kiosk@shop.example', iconUrl: 'http://127.0.0.1:9/kiosk.png' },
  })
  const { issues } = (await api.json()) as { issues: { field: string; message: string }[] }
  const words = issues.find((issue) => issue.field === 'iconUrl')?.message ?? 'the API gave no reason'
  await expect(form.getByLabel('Logo URL (optional)')).toHaveAttribute('aria-invalid', 'true')
  await expect(form.getByLabel('Logo URL (optional)')).toHaveAccessibleDescription(new RegExp(words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
  await form.getByLabel('Logo URL (optional)').fill(logoUrl)
  await form.getByRole('button', { name: 'Create merchant' }).click()
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Kiosk' }) })
  await expect(row).toContainText('kiosk@shop.example')
  // Till's own copy of the logo, loaded from the dashboard's origin.
  await expect.poll(() => row.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0)
  await expectNoAxeViolations(page, 'the Merchants page')

  await row.getByRole('button', { name: 'Edit Kiosk' }).click()
  const edit = page.getByRole('form', { name: 'Edit Kiosk' })
  await expect(edit.getByRole('heading', { name: 'Edit Kiosk' })).toBeFocused()
  await edit.getByLabel('Receiving accounts').fill(ACCOUNT.toLowerCase())
  await edit.getByRole('button', { name: 'Save' }).click()
  await expect(edit.getByLabel('Receiving accounts')).toHaveAccessibleDescription(
    /Line 1: is not EIP-55 checksummed; write it as eip155:8453:0x70997970C51812dc3A010C7d01b50e0d17dc79C8/,
  )
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectNoAxeViolations(page, 'the Merchants page with a refusal, dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await edit.getByLabel('Receiving accounts').fill(ACCOUNT)
  await edit.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('form', { name: 'Edit Kiosk' })).toHaveCount(0)
  await expect(row).toContainText(ACCOUNT)
  await shoot(page, 'dashboard-merchants')

  await page.setViewportSize({ width: 390, height: 844 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.setViewportSize({ width: 1280, height: 800 })

  // The merchant filter of the Payments page now offers both merchants.
  await page.getByRole('link', { name: 'Payments' }).click()
  await expect(page.getByLabel('Merchant')).toContainText('Kiosk')
  await page.getByRole('link', { name: 'Audit log' }).click()
  await expect(page.getByRole('cell', { name: 'merchant created' })).toBeVisible()
  await expect(page.getByRole('cell', { name: 'merchant updated' })).toBeVisible()
})
