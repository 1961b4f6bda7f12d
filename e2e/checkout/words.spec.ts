// The checkout's words at every step (issue 22, point 5): each screen's heading and what the amount at the
// top is, what the buyer pays or paid with, the sandbox's rates, and the mobile wallet's way back.
import type { Page } from '@playwright/test'
import { expect, test } from '../fixtures.ts'
import { outcomeHeading, payWith } from './buyer.ts'

const amountLabel = (page: Page) => page.locator('#checkout-amount-label')

test.beforeEach(async ({ page }) => {
  await page.clock.install()
})

test('pending, processing, then succeeded: the amount is due, being paid, then paid', async ({ page, till, merchant }) => {
  const payment = await till.createPayment({
    amount: { unit: 'iso4217/EUR', value: '1250' },
    checkout: { successUrl: merchant.url('/paid'), errorUrl: merchant.url('/failed') },
  })
  await page.goto(payment.gatewayUrl)
  await expect(page.getByRole('heading', { name: 'Connect a wallet' })).toBeVisible()
  await expect(amountLabel(page)).toHaveText('Amount due')

  await page.getByRole('button', { name: 'Test Wallet: Slow' }).click()
  await expect(page.getByRole('heading', { name: 'Choose how to pay' })).toBeVisible()
  // Every option shows its rate, and the sandbox's say they are its fixed ones.
  await expect(page.getByRole('radio', { name: /13\.50 USDC on Base/ })).toBeChecked()
  await expect(page.locator('.option-rate')).toHaveCount(4)
  await expect(page.locator('.option-rate').first()).toHaveText('Rate: 1 EUR = 1.08 USDC (fixed sandbox rate)')
  await expect(amountLabel(page)).toHaveText('Amount due')
  await page.getByRole('button', { name: /^Sign and pay / }).click()

  await expect(outcomeHeading(page, 'Payment processing')).toBeVisible()
  await expect(amountLabel(page)).toHaveText('Amount being paid')
  await expect(page.getByText('Paying with', { exact: true })).toBeVisible()
  await expect(page.getByText('Paid with', { exact: true })).toHaveCount(0)

  // Opened again while processing, the page paints the same words from the server.
  await page.reload()
  await expect(amountLabel(page)).toHaveText('Amount being paid')
  await expect(outcomeHeading(page, 'Payment processing')).toBeVisible()

  await till.confirm(payment.paymentId)
  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  await expect(amountLabel(page)).toHaveText('Amount paid')
  await expect(page.getByText('Paid with', { exact: true })).toBeVisible()
  await expect(page.getByText('13.50 USDC on Base')).toBeVisible()
})

test('failed: the amount was not charged, and nothing was paid with', async ({ page, till }) => {
  const payment = await till.createPayment({})
  await page.goto(payment.gatewayUrl)
  await payWith(page, 'declines')
  await expect(outcomeHeading(page, 'Payment failed')).toBeVisible()
  await expect(amountLabel(page)).toHaveText('Amount not charged')
  await expect(page.getByText(/Paid with|Paying with/)).toHaveCount(0)
  await expect(page.getByText(/Amount due/)).toHaveCount(0)
})

test('expired: the amount was not paid, and is no longer due', async ({ page, till }) => {
  const payment = await till.createPayment({})
  await page.goto(payment.gatewayUrl)
  await page.getByRole('button', { name: 'Expire now (test mode)' }).click()
  await expect(outcomeHeading(page, 'Payment expired')).toBeVisible()
  await expect(amountLabel(page)).toHaveText('Amount not paid')
  await expect(page.getByText(/Amount due/)).toHaveCount(0)

  await page.reload()
  await expect(amountLabel(page)).toHaveText('Amount not paid')
})

test('the sandbox mobile wallet on a desktop leads back to the payment', async ({ page, till }) => {
  const payment = await till.createPayment({})
  await page.goto(payment.gatewayUrl)
  await page.getByRole('button', { name: /Mobile wallet \(sandbox\)/ }).click()
  await expect(page.getByRole('heading', { name: 'This link opens in a wallet app' })).toBeVisible()

  await page.getByRole('link', { name: 'Back to the checkout page' }).click()
  await expect(page).toHaveURL(payment.gatewayUrl)
  await expect(page.getByRole('heading', { name: 'Connect a wallet' })).toBeVisible()
  await expect(amountLabel(page)).toHaveText('Amount due')
})
