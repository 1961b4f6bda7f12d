// What a buyer does on the hosted checkout page, in the words the page shows them.
import type { Page } from '@playwright/test'
import { expect } from '../fixtures.ts'

export const WALLETS = {
  pays: 'Test Wallet: Pays',
  declines: 'Test Wallet: Declines',
  slow: 'Test Wallet: Slow',
  never: 'Test Wallet: Never Confirms',
} as const

/** Connects a test wallet, keeps the first payment option (USDC on Base) and signs. */
export async function payWith(page: Page, wallet: keyof typeof WALLETS) {
  await page.getByRole('button', { name: WALLETS[wallet] }).click()
  await expect(page.getByRole('heading', { name: 'Choose how to pay' })).toBeVisible()
  await page.getByRole('button', { name: /^Sign and pay / }).click()
}

/** Stops the page's clock, so the countdown only moves when the test says so. */
export async function freezePageClock(page: Page) {
  const now = await page.evaluate(() => Date.now())
  await page.clock.pauseAt(now + 1_000)
}

export const outcomeHeading = (
  page: Page,
  name: 'Payment successful' | 'Payment failed' | 'Payment expired' | 'Payment cancelled' | 'Payment processing',
) => page.getByRole('heading', { name })

/**
 * Collects every Content-Security-Policy violation the page reports from now on, as the browser words it:
 * a spec expects the list empty once the buyer is done.
 */
export async function cspViolations(page: Page): Promise<string[]> {
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text())
  })
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => console.error(`Refused to: ${event.violatedDirective}`))
  })
  return violations
}
