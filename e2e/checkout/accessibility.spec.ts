// The checkout page with a keyboard alone, and axe-core on every screen a buyer meets.
import { expect, test } from '../fixtures.ts'
import { expectNoAxeViolations } from '../axe.ts'
import { outcomeHeading } from './buyer.ts'

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds nothing on any screen of a payment (${scheme} scheme)`, async ({ page, till, merchant }) => {
    await page.emulateMedia({ colorScheme: scheme })
    await page.clock.install()
    await page.clock.pauseAt(Date.now() + 1_000)
    const payment = await till.createPayment({ checkout: { successUrl: merchant.url('/paid'), errorUrl: merchant.url('/failed') } })
    await page.goto(payment.gatewayUrl)
    await expect(page.getByRole('heading', { name: 'Connect a wallet' })).toBeVisible()
    await expectNoAxeViolations(page, 'connect')

    await page.getByRole('button', { name: 'Test Wallet: Slow' }).click()
    await expect(page.getByRole('radio').first()).toBeChecked()
    await expectNoAxeViolations(page, 'choose')

    await page.getByRole('button', { name: /^Sign and pay/ }).click()
    await expect(outcomeHeading(page, 'Payment processing')).toBeVisible()
    await expectNoAxeViolations(page, 'processing')

    await till.confirm(payment.paymentId)
    await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
    await expect(page.getByRole('progressbar')).toBeVisible()
    await expectNoAxeViolations(page, 'succeeded with countdown')
  })
}

test('a payment is made with the keyboard alone, and focus follows every change of screen', async ({ page, till, merchant }) => {
  const payment = await till.createPayment({ checkout: { successUrl: merchant.url('/paid'), errorUrl: merchant.url('/failed') } })
  await page.goto(payment.gatewayUrl)
  await expect(page.getByRole('heading', { name: 'Connect a wallet' })).toBeVisible()

  // Tab to the first wallet and on to the declining one.
  await page.keyboard.press('Tab')
  await expect(page.getByRole('button', { name: 'Test Wallet: Pays' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('button', { name: 'Test Wallet: Declines' })).toBeFocused()
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Enter')

  await expect(page.getByRole('heading', { name: 'Choose how to pay' })).toBeFocused()
  // The options arrive from the service after the heading: a buyer tabs to them once they are shown.
  await expect(page.getByRole('radio', { name: /on Base/ })).toBeChecked()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('radio', { name: /on Base/ })).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByRole('radio', { name: /USDC on Ethereum/ })).toBeChecked()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('button', { name: /^Sign and pay 13\.50 USDC$/ })).toBeFocused()
  await page.keyboard.press('Enter')

  await expect(outcomeHeading(page, 'Payment successful')).toBeFocused()
  await expect(page.getByText('13.50 USDC on Ethereum')).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Return to Till Demo Shop now' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(merchant.url(`/paid?payment_id=${payment.paymentId}`))
})

test('"Use another wallet" takes the buyer back, with focus on the wallet list heading', async ({ page, till }) => {
  const payment = await till.createPayment()
  await page.goto(payment.gatewayUrl)
  await page.getByRole('button', { name: 'Test Wallet: Pays' }).click()
  await page.getByRole('button', { name: 'Use another wallet' }).click()
  await expect(page.getByRole('heading', { name: 'Connect a wallet' })).toBeFocused()
})
