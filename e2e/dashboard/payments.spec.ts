// The shop's owner joins the dashboard from the sandbox's invitation, finds a payment made through the API,
// cancels it while its checkout page is open, signs out and back in; a viewer sees no actions.
import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { expectNoAxeViolations } from '../axe.ts'
import { startTill, type Till } from '../fixtures.ts'

const PASSWORD = 'plum-orbit-violet-kettle'
let till: Till
let stop: () => Promise<void>
test.beforeAll(async () => {
  ;({ till, stop } = await startTill())
})
test.afterAll(() => stop())

test('the owner joins by invitation, finds a payment by its reference, cancels it, and signs back in', async ({ page, context }) => {
  await page.clock.install()
  const invitation = till.dashboardInviteUrl
  if (!invitation) throw new Error('till serve --sandbox printed no dashboard invitation')
  await page.goto(invitation)
  await expect(page.getByRole('heading', { name: 'Join the dashboard' })).toBeVisible()
  await expect(page.getByText('You are invited as owner@sandbox.till.test, with the owner role.')).toBeVisible()
  await page.getByLabel('Choose a password').fill('short')
  await page.getByRole('button', { name: 'Create my account' }).click()
  await page.getByLabel('Choose a password').fill('passwordpassword')
  await page.getByRole('button', { name: 'Create my account' }).click()
  await expect(page.getByRole('alert')).toContainText('in a list of common passwords')
  await page.getByLabel('Choose a password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Create my account' }).click()
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()
  await expectNoAxeViolations(page, 'the Payments page')

  // A payment made through the API, with its checkout page open in another tab.
  const payment = await till.createPayment({ referenceId: 'order-dash-1001' })
  await till.createPayment({ referenceId: 'order-other-2002' })
  const checkout = await context.newPage()
  await checkout.goto(payment.gatewayUrl)
  await expect(checkout.getByRole('button', { name: 'Test Wallet: Pays' })).toBeVisible()

  await page.getByLabel('Search by reference').fill('dash-1001')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/referenceId=dash-1001/)
  const rows = page.getByRole('table').getByRole('row')
  await expect(rows).toHaveCount(2)
  await expect(rows.nth(1)).toContainText('order-dash-1001')
  // The export holds the same rows as the filtered list: here the one payment, every field of it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()])
  const csv = await readFile((await download.path()) ?? '', 'utf8')
  const lines = csv.trim().split('\r\n')
  expect(lines).toHaveLength(2)
  expect(lines[0]).toMatch(/^paymentId,merchantId,merchantName,referenceId,status,/)
  expect(lines[1]).toContain(`${payment.paymentId},`)
  expect(lines[1]).toContain(',order-dash-1001,requires_action,false,EUR,1250,12.50,')
  await page.getByRole('link', { name: payment.paymentId }).click()

  await expect(page.getByRole('heading', { name: `Payment ${payment.paymentId}` })).toBeVisible()
  await expect(page.getByRole('listitem').filter({ hasText: 'Created' })).toBeVisible()
  await expectNoAxeViolations(page, 'a payment’s page')
  await page.getByRole('button', { name: 'Cancel payment' }).click()
  await expect(page.getByText('Cancelled', { exact: true })).toBeVisible()
  await expect(page.getByRole('listitem').filter({ hasText: 'pending → cancelled (merchant_cancelled)' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Cancel payment' })).toHaveCount(0)
  // The buyer's open page hears of it.
  await expect(checkout.getByRole('heading', { name: 'Payment cancelled' })).toBeVisible()

  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await page.getByLabel('Email').fill('owner@sandbox.till.test')
  await page.getByLabel('Password').fill('wrong password entirely')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('alert')).toHaveText('The email or the password is wrong.')
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()
  await page.getByRole('link', { name: 'Audit log' }).click()
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible()
  await expect(page.getByRole('cell', { name: 'payment cancelled' })).toBeVisible()
  await expect(page.getByRole('cell', { name: 'sign in failed' })).toBeVisible()

  await page.emulateMedia({ colorScheme: 'dark' })
  await expectNoAxeViolations(page, 'the Audit log page, dark')
})

test('a forged request with the owner’s cookie alone changes nothing', async ({ page }) => {
  await page.goto(`${till.baseUrl}/dashboard/sign-in`)
  await page.getByLabel('Email').fill('owner@sandbox.till.test')
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()
  const open = await till.createPayment()
  // The browser sends the session cookie; a page that is not the dashboard has no CSRF token to send.
  const forged = await page.request.post(`${till.baseUrl}/dashboard/api/payments/${open.paymentId}/cancel`, {
    headers: { origin: 'https://evil.example' },
  })
  expect(forged.status()).toBe(403)
  expect(await forged.json()).toMatchObject({ code: 'csrf_refused' })
  expect(await till.status(open.paymentId)).toEqual({ status: 'pending', isFinal: false })
})
