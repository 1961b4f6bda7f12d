// The shop's owner joins the dashboard from the sandbox's invitation with a passkey, finds a payment made
// through the API, exports it, cancels it while its checkout page is open, and signs back in with the
// passkey; a colleague the owner invites signs in with a password; a forged request is refused.
import { readFile } from 'node:fs/promises'
import { expect, type Page, test } from '@playwright/test'
import { expectNoAxeViolations } from '../axe.ts'
import { startTill, type Till } from '../fixtures.ts'
import { withAuthenticator } from './authenticator.ts'
import { shoot } from './screenshots.ts'

let till: Till
let stop: () => Promise<void>
let dashboard: string
/** The colleague's invitation, which the owner makes at the end of the first story. */
let colleagueInvitation = ''
test.beforeAll(async () => {
  ;({ till, stop } = await startTill())
  if (!till.dashboardInviteUrl) throw new Error('till serve --sandbox printed no dashboard invitation')
  dashboard = new URL(till.dashboardInviteUrl).origin
})
test.afterAll(() => stop())
test.describe.configure({ mode: 'serial' })

/** The Payments page's rows, its header row included. */
const rowsOf = (page: Page) => page.getByRole('table', { name: 'Payments, newest first' }).getByRole('row')

test.use({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, colorScheme: 'light' })

test('the owner joins with a passkey, finds and exports a payment, cancels it, and signs back in with the passkey', async ({
  page,
  context,
}) => {
  await page.clock.install()
  await withAuthenticator(page)
  await page.goto(till.dashboardInviteUrl ?? '')
  await expect(page.getByRole('heading', { name: 'Join the dashboard' })).toBeVisible()
  await expect(page.getByText('You are invited as owner@sandbox.till.test, with the owner role.')).toBeVisible()
  await page.getByRole('button', { name: 'Create a passkey' }).click()
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()
  await expectNoAxeViolations(page, 'the Payments page')

  // The shop's webhook endpoint is down (nothing listens on port 9): its attempts fail, and show so.
  const registered = await page.request.post(`${till.baseUrl}/v1/webhook-endpoints`, {
    headers: { 'api-key': till.apiKey, 'merchant-id': till.merchantId },
    data: { url: 'https://127.0.0.1:9/hook', events: ['payment.cancelled'] },
  })
  expect(registered.status()).toBe(201)

  // Payments made through the API appear as they are made, with no reload; one has its checkout page open.
  await expect(page.getByText('No payments match.')).toBeVisible()
  const payment = await till.createPayment({ referenceId: 'order-dash-1001' })
  await expect(rowsOf(page).filter({ hasText: 'order-dash-1001' })).toBeVisible()
  await till.createPayment({ referenceId: 'order-other-2002' })
  await expect(rowsOf(page)).toHaveCount(3)
  await expect(page.getByRole('list', { name: 'Totals' })).toContainText('Transactions 2')
  const chart = page.getByRole('figure', { name: /^Payments per day/ })
  await expect(chart.getByRole('table', { name: 'Payments per day' }).getByRole('row').last().getByRole('cell').last()).toHaveText('2')
  const checkout = await context.newPage()
  await checkout.goto(payment.gatewayUrl)
  await expect(checkout.getByRole('button', { name: 'Test Wallet: Pays' })).toBeVisible()

  // One box finds a payment by its transaction's hash or its buyer's address, as by its reference.
  const paid = await till.createPayment({ referenceId: 'order-paid-4004' })
  const listed = await till.simulate(paid.paymentId, 'succeeded')
  const search = page.getByRole('searchbox', { name: 'Search' })
  for (const text of [listed.transaction?.hash ?? '', listed.buyer?.accountCaip10.split(':')[2]?.toUpperCase() ?? '']) {
    await search.fill(text)
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect(rowsOf(page)).toHaveCount(2)
    await expect(rowsOf(page).nth(1)).toContainText('order-paid-4004')
  }
  await search.fill('dash-1001')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(page).toHaveURL(/q=dash-1001/)
  const rows = rowsOf(page)
  await expect(rows).toHaveCount(2)
  await expect(rows.nth(1)).toContainText('order-dash-1001')
  // The export holds the same rows as the filtered list: here the one payment, every field of it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()])
  const lines = (await readFile((await download.path()) ?? '', 'utf8')).trim().split('\r\n')
  expect(lines).toHaveLength(2)
  expect(lines[0]).toMatch(/^paymentId,merchantId,merchantName,referenceId,status,/)
  expect(lines[1]).toContain(`${payment.paymentId},`)
  expect(lines[1]).toContain(',order-dash-1001,requires_action,false,EUR,1250,12.50,')

  await page.getByRole('link', { name: 'Payments' }).click()
  await expect(rowsOf(page)).toHaveCount(4)
  // Filters live in the address too: the token of the one paid payment finds it alone, and the day does not.
  await page.getByLabel('Token').fill('USDC')
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page).toHaveURL(/token_symbol=USDC/)
  await expect(rowsOf(page)).toHaveCount(2)
  await page.getByLabel('From').fill('2020-01-01')
  await page.getByLabel('To (included)').fill('2020-01-31')
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page.getByText('No payments match.')).toBeVisible()
  await page.getByRole('link', { name: 'Payments' }).click()
  await expect(rowsOf(page)).toHaveCount(4)
  // Unfiltered, the export holds exactly the listed payments.
  const [all] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()])
  const exportedIds = (await readFile((await all.path()) ?? '', 'utf8'))
    .trim()
    .split('\r\n')
    .slice(1)
    .map((line) => line.split(',')[0])
  const listedIds = await rowsOf(page).getByRole('rowheader').allInnerTexts()
  expect(exportedIds).toEqual(listedIds)
  await shoot(page, 'dashboard-payments')
  await search.fill('dash-1001')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await page.getByRole('link', { name: payment.paymentId }).click()
  await expect(page.getByRole('heading', { name: `Payment ${payment.paymentId}` })).toBeVisible()
  await expect(page.getByRole('listitem').filter({ hasText: 'Created' })).toBeVisible()
  await expectNoAxeViolations(page, 'a payment’s page')
  await page.getByRole('button', { name: 'Cancel payment' }).click()
  await expect(page.getByText('Cancelled', { exact: true })).toBeVisible()
  await expect(page.getByRole('listitem').filter({ hasText: 'Requires action → Cancelled (merchant cancelled)' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Cancel payment' })).toHaveCount(0)
  // The buyer's open page hears of it.
  await expect(checkout.getByRole('heading', { name: 'Payment cancelled' })).toBeVisible()
  // The shop's webhook of it was tried, and failed; staff send it again. The page shows what was tried
  // when it loads, as staff would reload it.
  const attempts = page.getByRole('listitem').filter({ hasText: 'Webhook payment.cancelled to https://127.0.0.1:9/hook' })
  await expect(async () => {
    await page.reload()
    await expect(attempts).toHaveCount(1, { timeout: 1_000 })
  }).toPass()
  await expect(attempts).toContainText(/could not reach the endpoint: .+ in [0-9]+ ms/)
  await attempts.getByRole('button', { name: 'Redeliver' }).click()
  await expect(async () => {
    await page.reload()
    await expect(attempts).toHaveCount(2, { timeout: 1_000 })
  }).toPass()
  await shoot(page, 'dashboard-payment')

  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()
  await page.getByRole('link', { name: 'Audit log' }).click()
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible()
  await expect(page.getByRole('cell', { name: 'payment cancelled' })).toBeVisible()
  await expect(page.getByRole('cell', { name: 'webhook redelivered' })).toBeVisible()
  await expect(page.getByRole('cell', { name: 'invitation accepted' })).toBeVisible()
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectNoAxeViolations(page, 'the Audit log page, dark')

  // The owner invites a colleague, as the page would: with the session's CSRF token.
  const { csrfToken } = (await (await page.request.get(`${dashboard}/dashboard/api/session`)).json()) as { csrfToken: string }
  const invited = await page.request.post(`${dashboard}/dashboard/api/invitations`, {
    headers: { origin: dashboard, 'x-csrf-token': csrfToken },
    data: { email: 'ana@shop.example', role: 'viewer' },
  })
  expect(invited.status()).toBe(201)
  colleagueInvitation = ((await invited.json()) as { invitationUrl: string }).invitationUrl
})

test('a colleague the owner invited signs in with a password, and sees no actions as a viewer', async ({ page: colleague }) => {
  await colleague.goto(colleagueInvitation)
  await colleague.getByLabel('Choose a password').fill('passwordpassword')
  await colleague.getByRole('button', { name: 'Create my account' }).click()
  await expect(colleague.getByRole('alert')).toContainText('in a list of common passwords')
  await colleague.getByLabel('Choose a password').fill('plum-orbit-violet-kettle')
  await colleague.getByRole('button', { name: 'Create my account' }).click()
  await expect(colleague.getByRole('heading', { name: 'Payments' })).toBeVisible()
  await colleague.getByRole('button', { name: 'Sign out', exact: true }).click()
  await colleague.getByLabel('Email').fill('ana@shop.example')
  await colleague.getByLabel('Password').fill('not her password at all')
  await colleague.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(colleague.getByRole('alert')).toHaveText('The email or the password is wrong.')
  await colleague.getByLabel('Password').fill('plum-orbit-violet-kettle')
  await colleague.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(colleague.getByRole('heading', { name: 'Payments' })).toBeVisible()

  const open = await till.createPayment({ referenceId: 'order-viewer-3003' })
  await colleague.goto(`${dashboard}/dashboard/payments/${open.paymentId}`)
  await expect(colleague.getByRole('heading', { name: `Payment ${open.paymentId}` })).toBeVisible()
  await expect(colleague.getByRole('button', { name: 'Cancel payment' })).toHaveCount(0)
  await expect(colleague.getByRole('link', { name: 'Audit log' })).toHaveCount(0)
  await expect(colleague.getByRole('link', { name: 'API keys' })).toHaveCount(0)
  await expect(colleague.getByRole('link', { name: 'Team' })).toHaveCount(0)
  // The management pages a viewer may read show no button that changes anything.
  for (const [link, heading] of [
    ['Merchants', 'Merchants'],
    ['Webhooks', 'Webhooks'],
    ['Unapplied transfers', 'Unapplied transfers'],
  ] as const) {
    await colleague.getByRole('link', { name: link }).click()
    await expect(colleague.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
    await expect(colleague.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0)
    const changers = colleague.getByRole('main').getByRole('button', {
      name: /Create|Edit|Add|Send a test|Disable|Enable|Rotate|Delete|Refund|Redeliver/,
    })
    await expect(changers).toHaveCount(0)
  }
  // A request forged elsewhere carries the viewer's cookie but no CSRF token: refused, nothing changes.
  const forged = await colleague.request.post(`${dashboard}/dashboard/api/payments/${open.paymentId}/cancel`, {
    headers: { origin: 'https://evil.example' },
  })
  expect(forged.status()).toBe(403)
  expect(await till.status(open.paymentId)).toEqual({ status: 'pending', isFinal: false })
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('staff page through payments with the keyboard alone, and nothing is wider than the screen', async ({ page }) => {
    const fitsTheScreen = async (name: string) =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(390)
    await page.goto(`${dashboard}/dashboard/sign-in`)
    await page.getByLabel('Email').focus()
    await page.keyboard.type('ana@shop.example')
    await page.keyboard.press('Tab')
    await page.keyboard.type('plum-orbit-violet-kettle')
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()
    await fitsTheScreen('the Payments page')
    await page.clock.install()
    await page.emulateMedia({ colorScheme: 'dark' })
    await expectNoAxeViolations(page, 'the Payments page on a phone, dark')
    await page.emulateMedia({ colorScheme: 'light' })

    // Two to a page: "Next", then "Previous" brings back the same first page.
    await page.goto(`${dashboard}/dashboard/?limit=2`)
    await expect(rowsOf(page)).toHaveCount(3)
    const firstPage = await rowsOf(page).allInnerTexts()
    await expect(page.getByRole('link', { name: 'Previous' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Next' }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('link', { name: 'Previous' })).toBeVisible()
    await expect(rowsOf(page).nth(1)).not.toHaveText(firstPage[1] ?? '')
    await page.getByRole('link', { name: 'Previous' }).focus()
    await page.keyboard.press('Enter')
    await expect(rowsOf(page).nth(1)).toHaveText(firstPage[1] ?? '')
    await expect(page.getByRole('link', { name: 'Previous' })).toHaveCount(0)

    await page.getByRole('searchbox', { name: 'Search' }).focus()
    await page.keyboard.type('viewer-3003')
    await page.keyboard.press('Enter')
    await expect(rowsOf(page)).toHaveCount(2)
    await rowsOf(page).nth(1).getByRole('link').focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { name: /^Payment pay_/ })).toBeVisible()
    await expect(page.getByRole('heading', { name: /^Payment pay_/ })).toBeFocused()
    await fitsTheScreen('a payment’s page')
    await expectNoAxeViolations(page, 'a payment’s page at 390 px')
  })
})
