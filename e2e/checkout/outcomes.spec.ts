// The buyer pays on the hosted checkout page with each sandbox test wallet and is sent back to the shop.
import { expect, test } from '../fixtures.ts'
import { freezePageClock, outcomeHeading, payWith } from './buyer.ts'

test.beforeEach(async ({ page }) => {
  await page.clock.install()
})

test('a buyer pays with the paying wallet and returns to successUrl after a 3-second countdown', async ({ page, till, merchant }) => {
  const payment = await till.createPayment({
    amount: { unit: 'iso4217/EUR', value: '1250' },
    checkout: { successUrl: merchant.url('/orders/42/paid?lang=en&ref=a%20b#receipt'), errorUrl: merchant.url('/orders/42/failed') },
  })
  await page.goto(payment.gatewayUrl)
  await expect(page.getByText('Till Demo Shop')).toBeVisible()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('€12.50')
  await expect(page.getByRole('timer')).toHaveText(/Expires in 1[45]:\d\d/)

  await page.getByRole('button', { name: 'Test Wallet: Pays' }).click()
  await expect(page.getByRole('radio', { name: /13\.50 USDC on Base/ })).toBeChecked()
  await page.getByRole('radio', { name: /13\.50 USDC on Polygon/ }).check()
  await freezePageClock(page)
  await page.getByRole('button', { name: 'Sign and pay 13.50 USDC' }).click()

  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  await expect(page.getByText('Returning to Till Demo Shop in 3 seconds.', { exact: true })).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: 'Payment successful' })).toHaveText(/Returning to Till Demo Shop in 3 seconds/)
  await expect(page.getByRole('progressbar', { name: 'Time until you are returned to the shop' })).toBeVisible()
  await expect(page.getByText('13.50 USDC on Polygon')).toBeVisible()

  await page.clock.runFor(2_000)
  await expect(page.getByText('Returning to Till Demo Shop in 1 second.', { exact: true })).toBeVisible()
  await page.clock.runFor(990)
  await expect(page).toHaveURL(payment.gatewayUrl)
  expect(merchant.requests).toEqual([])

  await page.clock.runFor(10)
  await expect(page).toHaveURL(merchant.url(`/orders/42/paid?lang=en&ref=a%20b&payment_id=${payment.paymentId}#receipt`))
  await expect(page.getByTestId('return-url')).toHaveText(`/orders/42/paid?lang=en&ref=a%20b&payment_id=${payment.paymentId}`)
  expect(await till.status(payment.paymentId)).toEqual({ status: 'succeeded', isFinal: true })
})

test('a buyer who declines to sign lands on errorUrl', async ({ page, till, merchant }) => {
  const payment = await till.createPayment({
    checkout: { successUrl: merchant.url('/paid'), errorUrl: merchant.url('/failed?order=7') },
  })
  await page.goto(payment.gatewayUrl)
  await freezePageClock(page)
  await payWith(page, 'declines')
  await expect(outcomeHeading(page, 'Payment failed')).toBeVisible()
  await expect(outcomeHeading(page, 'Payment failed')).toBeFocused()
  await page.clock.runFor(3_000)
  await expect(page).toHaveURL(merchant.url(`/failed?order=7&payment_id=${payment.paymentId}`))
  expect(await till.status(payment.paymentId)).toEqual({ status: 'failed', isFinal: true })
})

test('the slow wallet shows processing, then success as soon as the network confirms', async ({ page, till, merchant }) => {
  const payment = await till.createPayment({ checkout: { successUrl: merchant.url('/paid'), errorUrl: merchant.url('/failed') } })
  await page.goto(payment.gatewayUrl)
  await payWith(page, 'slow')
  await expect(outcomeHeading(page, 'Payment processing')).toBeVisible()
  await expect(outcomeHeading(page, 'Payment processing')).toBeFocused()
  await expect(page.getByText(/^0x[0-9a-f]{4}…[0-9a-f]{4}$/)).toBeVisible()
  expect(await till.status(payment.paymentId)).toEqual({ status: 'processing', isFinal: false })

  // The service holds the confirmation (TILL_SERVE_ARGS) until the network confirms, here; the page's
  // long-poll brings the news without the buyer doing anything.
  await till.confirm(payment.paymentId)
  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  await freezePageClock(page)
  await page.clock.runFor(3_000)
  await expect(page).toHaveURL(merchant.url(`/paid?payment_id=${payment.paymentId}`))
})

test('a transaction that never confirms keeps the page processing, and it never leaves', async ({ page, till, merchant }) => {
  const payment = await till.createPayment({ checkout: { successUrl: merchant.url('/paid'), errorUrl: merchant.url('/failed') } })
  await page.goto(payment.gatewayUrl)
  await payWith(page, 'never')
  await expect(outcomeHeading(page, 'Payment processing')).toBeVisible()
  await page.clock.runFor(60_000)
  await expect(outcomeHeading(page, 'Payment processing')).toBeVisible()
  await expect(page).toHaveURL(payment.gatewayUrl)
  expect(merchant.requests).toEqual([])
  expect(await till.status(payment.paymentId)).toEqual({ status: 'processing', isFinal: false })
})

test('the sandbox "expire now" control ends the payment and sends the buyer to errorUrl', async ({ page, till, merchant }) => {
  const payment = await till.createPayment({ checkout: { successUrl: merchant.url('/paid'), errorUrl: merchant.url('/failed') } })
  await page.goto(payment.gatewayUrl)
  await freezePageClock(page)
  await page.getByRole('button', { name: 'Expire now (test mode)' }).click()
  await expect(outcomeHeading(page, 'Payment expired')).toBeVisible()
  await page.clock.runFor(3_000)
  await expect(page).toHaveURL(merchant.url(`/failed?payment_id=${payment.paymentId}`))
  expect(await till.status(payment.paymentId)).toEqual({ status: 'expired', isFinal: true })
})

test('a payment expired from the merchant side while its page is open shows expired at once, then redirects', async ({
  page,
  till,
  merchant,
}) => {
  const payment = await till.createPayment({ checkout: { successUrl: merchant.url('/paid'), errorUrl: merchant.url('/failed') } })
  await page.goto(payment.gatewayUrl)
  await page.getByRole('button', { name: 'Test Wallet: Pays' }).click()
  await expect(page.getByRole('heading', { name: 'Choose how to pay' })).toBeVisible()

  await till.simulate(payment.paymentId, 'expired')
  // The page's long-poll is woken by the change; it does not wait for a polling interval.
  await expect(outcomeHeading(page, 'Payment expired')).toBeVisible()
  await expect(page.getByRole('button', { name: /^Sign and pay/ })).toHaveCount(0)
  await freezePageClock(page)
  await page.clock.runFor(3_000)
  await expect(page).toHaveURL(merchant.url(`/failed?payment_id=${payment.paymentId}`))
})

test('a page opened after the payment ended shows the outcome and redirects the same way', async ({ page, till, merchant }) => {
  const payment = await till.createPayment({ checkout: { successUrl: merchant.url('/paid?x=1'), errorUrl: merchant.url('/failed') } })
  await till.simulate(payment.paymentId, 'succeeded')
  await page.clock.pauseAt(Date.now() + 1_000)
  await page.goto(payment.gatewayUrl)
  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Test Wallet: Pays' })).toHaveCount(0)
  await page.clock.runFor(2_999)
  await expect(page).toHaveURL(payment.gatewayUrl)
  await page.clock.runFor(1)
  await expect(page).toHaveURL(merchant.url(`/paid?x=1&payment_id=${payment.paymentId}`))
})

test('a payment whose time runs out while the buyer looks at it turns expired and returns to errorUrl', async ({
  page,
  till,
  merchant,
}) => {
  const payment = await till.createPayment({ checkout: { successUrl: merchant.url('/paid'), errorUrl: merchant.url('/failed?order=9') } })
  await page.goto(payment.gatewayUrl)
  await expect(page.getByRole('timer')).toHaveText(/Expires in 1[45]:\d\d/)
  await page.getByRole('button', { name: 'Test Wallet: Pays' }).click()
  await expect(page.getByRole('button', { name: /^Sign and pay/ })).toBeVisible()

  // The buyer's time runs out: the deadline is brought to now, and the service's deadline alone ends the
  // payment (no status is forced); the page's long-poll hears of it.
  await till.reachDeadline(payment.paymentId)
  await expect(outcomeHeading(page, 'Payment expired')).toBeVisible()
  await expect(page.getByRole('button', { name: /^Sign and pay/ })).toHaveCount(0)
  await freezePageClock(page)
  await page.clock.runFor(3_000)
  await expect(page).toHaveURL(merchant.url(`/failed?order=9&payment_id=${payment.paymentId}`))
  expect(await till.status(payment.paymentId)).toEqual({ status: 'expired', isFinal: true })
})
