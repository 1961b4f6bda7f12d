// The shop's owner invites a colleague as an admin, who joins with a passkey; the owner makes them a viewer,
// cannot demote themself as the last owner, and removes them, which signs them out at once.
import { expect, test } from '@playwright/test'
import { expectNoAxeViolations } from '../axe.ts'
import { startTill, type Till } from '../fixtures.ts'
import { withAuthenticator } from './authenticator.ts'
import { shoot } from './screenshots.ts'

let till: Till
let stop: () => Promise<void>
test.beforeAll(async () => {
  ;({ till, stop } = await startTill())
})
test.afterAll(() => stop())

test('the owner invites an admin who joins with a passkey, changes their role, and removes them', async ({ page, browser }) => {
  await page.clock.install()
  await page.goto(till.dashboardInviteUrl ?? '')
  await page.getByLabel('Choose a password').fill('plum-orbit-violet-kettle')
  await page.getByRole('button', { name: 'Create my account' }).click()
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()

  await page.getByRole('link', { name: 'Team' }).click()
  await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible()
  await page.getByLabel('Email').fill('lee@shop.example')
  await page.getByLabel('Role', { exact: true }).selectOption('admin')
  await page.getByRole('button', { name: 'Invite' }).click()
  const invitation = page.getByRole('region', { name: 'Invitation link' })
  await expect(invitation).toContainText('Till sends no email: send this link to lee@shop.example yourself.')
  const link = (await invitation.getByRole('code').textContent()) ?? ''
  await expect(page.getByRole('listitem').filter({ hasText: 'lee@shop.example, admin' })).toBeVisible()
  await expectNoAxeViolations(page, 'the Team page')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectNoAxeViolations(page, 'the Team page, dark')
  await page.emulateMedia({ colorScheme: 'light' })

  // The colleague, in their own browser, joins with a passkey.
  const lee = await (await browser.newContext()).newPage()
  await withAuthenticator(lee)
  await lee.goto(link)
  await expect(lee.getByText('You are invited as lee@shop.example, with the admin role.')).toBeVisible()
  await lee.getByRole('button', { name: 'Create a passkey' }).click()
  await expect(lee.getByRole('heading', { name: 'Payments' })).toBeVisible()

  await page.reload()
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'lee@shop.example' }) })
  await expect(row.getByRole('button', { name: /^Revoke the passkey / })).toBeVisible()
  await expect(row).toContainText('Active')
  await row.getByLabel('Role of lee@shop.example', { exact: true }).selectOption('viewer')
  await row.getByRole('button', { name: 'Change the role of lee@shop.example' }).click()
  await expect(row.getByLabel('Role of lee@shop.example', { exact: true })).toHaveValue('viewer')
  await shoot(page, 'dashboard-team')

  // The partner keeps an owner: the only one cannot make themself an admin.
  const me = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'owner@sandbox.till.test (you)' }) })
  await me.getByLabel('Role of owner@sandbox.till.test', { exact: true }).selectOption('admin')
  await me.getByRole('button', { name: 'Change the role of owner@sandbox.till.test' }).click()
  await expect(page.getByRole('alert')).toHaveText('the last owner cannot be removed or given another role.')

  await row.getByRole('button', { name: 'Remove lee@shop.example' }).click()
  const dialog = page.getByRole('dialog', { name: 'Remove lee@shop.example?' })
  await dialog.getByRole('button', { name: 'Remove member' }).click()
  await expect(row).toContainText('Removed')
  // Their session ended with it.
  await lee.reload()
  await expect(lee.getByRole('heading', { name: 'Sign in' })).toBeVisible()

  // On a phone the page and its table fit the screen.
  await page.setViewportSize({ width: 390, height: 844 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

  await page.getByRole('link', { name: 'Audit log' }).click()
  await expect(page.getByRole('cell', { name: 'member role changed' })).toBeVisible()
  await expect(page.getByRole('cell', { name: 'member removed' })).toBeVisible()
})
