// The shop's owner makes an API key in the dashboard, copies it once, and a payment the shop's backend
// makes with it shows on the Payments page; the owner revokes it, and the next call with it is refused.
import { expect, test } from '@playwright/test'
import { expectNoAxeViolations } from '../axe.ts'
import { startTill, type Till } from '../fixtures.ts'
import { shoot } from './screenshots.ts'

let till: Till
let stop: () => Promise<void>
test.beforeAll(async () => {
  ;({ till, stop } = await startTill())
})
test.afterAll(() => stop())

test('the owner creates an API key, copies it once, pays with it, and revokes it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.clock.install()
  await page.goto(till.dashboardInviteUrl ?? '')
  await page.getByLabel('Choose a password').fill('plum-orbit-violet-kettle')
  await page.getByRole('button', { name: 'Create my account' }).click()
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()

  await page.getByRole('link', { name: 'API keys' }).click()
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible()
  await page.getByLabel('Name').fill('Shop backend')
  await page.getByRole('button', { name: 'Create API key' }).click()
  await expect(page.getByRole('heading', { name: 'New key: Shop backend' })).toBeFocused()
  await expect(page.getByText('Copy it now: it will not be shown again.')).toBeVisible()
  await page.getByRole('button', { name: 'Copy' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Copied.' })).toBeVisible()
  const key = await page.evaluate(() => navigator.clipboard.readText())
  expect(key).toMatch(/^till_sk_test_[0-9a-z]+_/)
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Shop backend' }) })
  await expect(row).toContainText('Never')
  await expectNoAxeViolations(page, 'the API keys page')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectNoAxeViolations(page, 'the API keys page, dark')
  await page.emulateMedia({ colorScheme: 'light' })

  // The shop's backend pays with the new key; the payment shows on the Payments page.
  const headers = { 'api-key': key, 'merchant-id': till.merchantId }
  const created = await page.request.post(`${till.baseUrl}/v1/merchant/payment`, {
    headers,
    data: { amount: { unit: 'iso4217/EUR', value: '990' }, referenceId: 'order-new-key-1' },
  })
  expect(created.status()).toBe(201)
  await page.getByRole('link', { name: 'Payments' }).click()
  await expect(page.getByRole('row').filter({ hasText: 'order-new-key-1' })).toBeVisible()
  // Leaving the page forgets the secret: it is never shown again.
  await page.getByRole('link', { name: 'API keys' }).click()
  await expect(row).toContainText('owner@sandbox.till.test')
  await expect(page.getByText(key)).toHaveCount(0)
  await shoot(page, 'dashboard-api-keys')

  await row.getByRole('button', { name: 'Revoke Shop backend' }).click()
  const dialog = page.getByRole('dialog', { name: 'Revoke Shop backend?' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Keep it' }).click()
  await expect(row).toContainText('Active')
  await row.getByRole('button', { name: 'Revoke Shop backend' }).click()
  await dialog.getByRole('button', { name: 'Revoke key' }).click()
  await expect(row).toContainText('Revoked')
  const refused = await page.request.get(`${till.baseUrl}/v1/payments?limit=1`, { headers })
  expect(refused.status()).toBe(401)

  // On a phone the page, its table and the owner's navigation fit the screen.
  await page.setViewportSize({ width: 390, height: 844 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

  await page.getByRole('link', { name: 'Audit log' }).click()
  await expect(page.getByRole('cell', { name: 'api key created' })).toBeVisible()
  await expect(page.getByRole('cell', { name: 'api key revoked' })).toBeVisible()
})
