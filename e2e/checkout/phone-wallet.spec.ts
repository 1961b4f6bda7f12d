// A buyer pays from a phone wallet (issue 23, point 3): on the hosted sandbox page they pick the sandbox's
// phone wallet, see the payment request as a QR code and as a link for a wallet app, and copy the exact
// amount; the phone wallet's payment is played by the sandbox simulate call, and the page, which follows the
// payment's status, shows the outcome.
import { expectNoAxeViolations } from '../axe.ts'
import { expect, test } from '../fixtures.ts'
import { cspViolations, outcomeHeading } from './buyer.ts'

// What Till writes for a sandbox option (src/sandbox/chain-data.ts): USDC on Base, 12.50 EUR at the
// sandbox's fixed 1.08, to nobody, as the sandbox merchant has no address on Base.
const REQUEST =
  'ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x0000000000000000000000000000000000000000&uint256=13500000'

test('a buyer pays from a phone wallet by its payment request, and the page shows the payment paid', async ({ page, context, till }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.clock.install()
  // The page's clock moves only when the test says so: the expiry countdown and axe's timers.
  await page.clock.pauseAt(Date.now() + 1_000)
  const payment = await till.createPayment()
  await page.goto(payment.gatewayUrl)

  await page.getByRole('button', { name: 'Phone wallet (sandbox)' }).click()
  await expect(page.getByRole('radio', { name: /13\.50 USDC on Base/ })).toBeChecked()
  // The phone wallet signs nothing on this page: its one way to pay is the payment request.
  await expect(page.getByRole('button', { name: /^Sign and pay/ })).toHaveCount(0)
  await page.getByRole('button', { name: 'Pay from a phone wallet' }).click()

  await expect(page.getByRole('heading', { name: 'Pay from a phone wallet' })).toBeFocused()
  const qr = page.getByRole('img', { name: 'QR code of the payment request' })
  await expect(qr).toBeVisible()
  await expect(qr.locator('path')).toHaveAttribute('d', /^(M\d+ \d+h\d+v1h-\d+z)+$/)
  await expect(page.getByRole('link', { name: 'Open in a wallet app', exact: true })).toHaveAttribute('href', REQUEST)
  await expect(page.getByText('0x0000000000000000000000000000000000000000', { exact: true })).toBeVisible()
  await expect(page.getByText('Exactly 13500000 in the token’s smallest unit')).toBeVisible()
  await expect(page.getByText(/unique to this payment/)).toBeVisible()
  await expectNoAxeViolations(page, 'phone wallet')

  await page.getByRole('button', { name: 'Copy amount' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Amount copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('13.500000')

  // The phone wallet pays, out of the page's sight; the service's status is what moves the page.
  await till.simulate(payment.paymentId, 'succeeded')
  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  await expect(page.getByRole('img', { name: 'QR code of the payment request' })).toHaveCount(0)
  expect(await till.status(payment.paymentId)).toEqual({ status: 'succeeded', isFinal: true })
})

test('the phone screen keeps to the page’s CSP, and the buyer can go back to the other ways to pay', async ({ page, till }) => {
  const violations = await cspViolations(page)
  const payment = await till.createPayment()
  await page.goto(payment.gatewayUrl)
  await page.getByRole('button', { name: 'Phone wallet (sandbox)' }).click()
  await page.getByRole('button', { name: 'Pay from a phone wallet' }).click()
  await expect(page.getByRole('img', { name: 'QR code of the payment request' })).toBeVisible()
  // The screen's looks come with its chunk as a constructed stylesheet, which style-src 'self' allows.
  await expect(page.locator('.phone-details')).toHaveCSS('display', 'grid')
  expect(violations).toEqual([])

  await page.getByRole('button', { name: 'Back to other ways to pay' }).click()
  await expect(page.getByRole('heading', { name: 'Choose how to pay' })).toBeVisible()
  await page.getByRole('button', { name: 'Use another wallet' }).click()
  await expect(page.getByRole('button', { name: 'Test Wallet: Pays' })).toBeVisible()
  expect(await till.status(payment.paymentId)).toEqual({ status: 'pending', isFinal: false })
})
