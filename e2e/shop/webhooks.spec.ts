// Till tells the shop's backend of payments itself (signed webhooks to /pay/webhooks): an order is paid and
// fulfilled once even when the buyer never comes back to the shop, and a webhook racing the return page
// still fulfils it only once.
import { freezePageClock, outcomeHeading, payWith } from '../checkout/buyer.ts'
import { expect, test } from './fixtures.ts'
import { expectOrder, goToCheckout, placeOrder } from './shopper.ts'

test('a buyer who pays and closes the tab during the countdown still gets the order paid, fulfilled once', async ({
  page,
  context,
  shop,
}) => {
  await page.clock.install()
  const orderId = await placeOrder(page, shop)
  await goToCheckout(page, shop)
  await freezePageClock(page)
  await payWith(page, 'pays')
  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  await page.clock.runFor(1_000)
  await page.close()

  // Nobody comes back to the shop: only Till's webhook can tell it.
  await expect.poll(async () => (await shop.order(orderId)).paid).toBe(true)
  const orders = await context.newPage()
  await expectOrder(orders, shop, orderId, 'Paid', 'Once')
  expect((await shop.order(orderId)).fulfilments).toHaveLength(1)
})

test('with http:// return URLs (no redirect), the order is paid without any return', async ({ page, shop }) => {
  await page.clock.install()
  const orderId = await placeOrder(page, shop, 'http')
  await goToCheckout(page, shop)
  await freezePageClock(page)
  await payWith(page, 'pays')
  await expect(page.getByText('You can close this page now.')).toBeVisible()

  await expect.poll(async () => (await shop.order(orderId)).paid).toBe(true)
  await expectOrder(page, shop, orderId, 'Paid', 'Once')
  // The order page no longer offers to pay again (it did, before webhooks: and answered "already paid").
  await page.goto(shop.url(`/order.html?order=${orderId}`))
  await expect(page.getByText('This order is paid.')).toBeVisible()
  await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0)
})

test('the return page and the webhook race, and the order is fulfilled once', async ({ page, shop }) => {
  const order = await shop.placeOrder([{ productId: 'sencha', quantity: 1 }])
  const { paymentId } = await shop.startPayment(order.id)
  // The webhook is sent the moment the status changes; the buyer's return page loads at the same time.
  await Promise.all([shop.simulate(paymentId, 'succeeded'), page.goto(shop.url(`/return.html?order=${order.id}&payment_id=${paymentId}`))])
  await expect(page.locator('pay-return').getByText('Thank you! Your order is paid and on its way.')).toBeVisible()
  await expect.poll(async () => (await shop.order(order.id)).paid).toBe(true)
  await expectOrder(page, shop, order.id, 'Paid', 'Once')
  expect((await shop.order(order.id)).fulfilments).toHaveLength(1)
})
