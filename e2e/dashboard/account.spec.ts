// The shop's owner, who joined with a password, adds a passkey from "Your account", names it, signs in
// with it, changes the password, and ends a session left open in another browser.
import { expect, test } from '@playwright/test'
import { expectNoAxeViolations } from '../axe.ts'
import { startTill, type Till } from '../fixtures.ts'
import { withAuthenticator } from './authenticator.ts'
import { shoot } from './screenshots.ts'

let till: Till
let stop: () => Promise<void>
let dashboard: string
test.beforeAll(async () => {
  ;({ till, stop } = await startTill())
  dashboard = new URL(till.dashboardInviteUrl ?? '').origin
})
test.afterAll(() => stop())

test('the owner adds a passkey, signs in with it, changes the password, and ends another session', async ({ page, browser }) => {
  await page.clock.install()
  await withAuthenticator(page)
  await page.goto(till.dashboardInviteUrl ?? '')
  await page.getByLabel('Choose a password').fill('plum-orbit-violet-kettle')
  await page.getByRole('button', { name: 'Create my account' }).click()
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()

  await page.getByRole('link', { name: /^Your account/ }).click()
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible()
  await expect(page.getByText('No passkeys yet.')).toBeVisible()
  await page.getByLabel('Name for a new passkey').fill('Work laptop')
  await page.getByRole('button', { name: 'Add a passkey' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Passkey “Work laptop” added.' })).toBeVisible()
  await page.getByLabel('Name of Work laptop').fill('Desk')
  await page.getByRole('button', { name: 'Rename Work laptop' }).click()
  await expect(page.getByLabel('Name of Desk')).toHaveValue('Desk')
  await expectNoAxeViolations(page, 'Your account')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectNoAxeViolations(page, 'Your account, dark')
  await page.emulateMedia({ colorScheme: 'light' })

  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()

  // A session left open elsewhere, with the password.
  const elsewhere = await (await browser.newContext()).newPage()
  await elsewhere.goto(`${dashboard}/dashboard/sign-in`)
  await elsewhere.getByLabel('Email').fill('owner@sandbox.till.test')
  await elsewhere.getByLabel('Password').fill('plum-orbit-violet-kettle')
  await elsewhere.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(elsewhere.getByRole('heading', { name: 'Payments' })).toBeVisible()

  await page.getByRole('link', { name: /^Your account/ }).click()
  await expect(page.getByText('(this browser)')).toBeVisible()
  await page.getByRole('button', { name: /^End the session from / }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Session ended.' })).toBeVisible()
  await shoot(page, 'dashboard-account')
  await elsewhere.reload()
  await expect(elsewhere.getByRole('heading', { name: 'Sign in' })).toBeVisible()

  await page.getByLabel('Current password').fill('not my password')
  await page.getByLabel('New password').fill('a-brand-new-passphrase')
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByRole('alert')).toHaveText('is not your current password.')
  await page.getByLabel('Current password').fill('plum-orbit-violet-kettle')
  await page.getByLabel('New password').fill('a-brand-new-passphrase')
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Password saved.' })).toBeVisible()
  await elsewhere.getByLabel('Email').fill('owner@sandbox.till.test')
  await elsewhere.getByLabel('Password').fill('a-brand-new-passphrase')
  await elsewhere.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(elsewhere.getByRole('heading', { name: 'Payments' })).toBeVisible()
})
