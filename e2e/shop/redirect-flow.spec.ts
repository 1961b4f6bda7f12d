// A shopper pays for an order in the demo shop: pay button → Till's checkout page → a test wallet → the
// 3-second countdown → the shop's return page, which shows what the shop's backend read from Till.
import { freezePageClock, outcomeHeading, payWith } from '../checkout/buyer.ts'
import { expect, test } from './fixtures.ts'
import { endPaymentAndWait, expectOrder, goToCheckout, placeOrder, returnView } from './shopper.ts'

test.beforeEach(async ({ page }) => {
  await page.clock.install()
})

test('a paid order comes back to the shop as paid and is fulfilled once, however often the return page loads', async ({ page, shop }) => {
  const orderId = await placeOrder(page, shop)
  await goToCheckout(page, shop)
  await freezePageClock(page)
  await payWith(page, 'pays')
  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  await page.clock.runFor(2_999)
  await expect(page).toHaveURL(new RegExp(`^${shop.checkoutUrl}`))

  await page.clock.runFor(1)
  const { paymentId } = await shop.order(orderId)
  await expect(page).toHaveURL(shop.url(`/return.html?order=${orderId}&payment_id=${paymentId}`))
  await expect(returnView(page, 'Thank you! Your order is paid and on its way.')).toBeVisible()

  await page.reload()
  await expect(returnView(page, 'Thank you! Your order is paid and on its way.')).toBeVisible()
  await page.reload()
  await expect(returnView(page, 'Thank you! Your order is paid and on its way.')).toBeVisible()
  await expectOrder(page, shop, orderId, 'Paid', 'Once')
  expect((await shop.order(orderId)).fulfilments).toHaveLength(1)
})

test('a declined payment comes back as failed, and the order stays unpaid', async ({ page, shop }) => {
  const orderId = await placeOrder(page, shop)
  await goToCheckout(page, shop)
  await endPaymentAndWait(page, 'declines')
  await expect(page).toHaveURL(new RegExp(`/return\\.html\\?order=${orderId}&payment_id=pay_`))
  await expect(returnView(page, 'Your payment failed and nothing was charged.')).toBeVisible()
  await expectOrder(page, shop, orderId, 'Payment failed', 'Not yet')
})

test('a payment left to expire comes back as expired', async ({ page, shop }) => {
  const orderId = await placeOrder(page, shop)
  await goToCheckout(page, shop)
  await endPaymentAndWait(page, 'expire')
  await expect(page).toHaveURL(new RegExp(`/return\\.html\\?order=${orderId}&payment_id=pay_`))
  await expect(returnView(page, 'The time to pay ran out.')).toBeVisible()
  await expectOrder(page, shop, orderId, 'Payment expired', 'Not yet')
})

test('a slow network: the checkout page shows processing, then success, and the shop fulfils the order', async ({ page, shop }) => {
  const orderId = await placeOrder(page, shop)
  await goToCheckout(page, shop)
  await payWith(page, 'slow')
  await expect(outcomeHeading(page, 'Payment processing')).toBeVisible()
  const { paymentId } = await shop.order(orderId)
  // The service holds the confirmation (playwright.config.ts) until the network confirms, here.
  await shop.confirm(paymentId ?? '')
  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  await freezePageClock(page)
  await page.clock.runFor(3_000)
  await expect(returnView(page, 'Thank you! Your order is paid and on its way.')).toBeVisible()
  await expectOrder(page, shop, orderId, 'Paid', 'Once')
})

test('a buyer back on the return page while the payment is processing sees it update to paid', async ({ page, shop }) => {
  const order = await shop.placeOrder([{ productId: 'sencha', quantity: 1 }])
  const { paymentId } = await shop.startPayment(order.id)
  await shop.simulate(paymentId, 'processing')

  await page.goto(shop.url(`/return.html?order=${order.id}&payment_id=${paymentId}`))
  await expect(returnView(page, 'Your payment is being confirmed on the network.')).toBeVisible()
  await freezePageClock(page)
  await shop.simulate(paymentId, 'succeeded')
  // The page shows what the backend said last, until the element asks again, pollInMs (2 s) later.
  await expect(returnView(page, 'Your payment is being confirmed on the network.')).toBeVisible()
  await page.clock.runFor(2_000)
  await expect(returnView(page, 'Thank you! Your order is paid and on its way.')).toBeVisible()
  expect((await shop.order(order.id)).fulfilments).toHaveLength(1)
})
