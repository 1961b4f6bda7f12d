// The shop calls off an order's open payment while the buyer has its checkout page open: the page says so and
// sends the buyer back to the shop, whose return page and Orders page show the payment cancelled.
import { freezePageClock, outcomeHeading } from '../checkout/buyer.ts'
import { expect, test } from './fixtures.ts'
import { goToCheckout, orderCard, placeOrder, returnView } from './shopper.ts'

test.beforeEach(async ({ page }) => {
  await page.clock.install()
})

test('the shop cancels an open payment while its checkout page is open, and the buyer is sent back to errorUrl', async ({
  page,
  context,
  shop,
}) => {
  const orderId = await placeOrder(page, shop)
  await goToCheckout(page, shop)
  const checkoutUrl = page.url()
  await expect(page.getByRole('button', { name: 'Test Wallet: Pays' })).toBeVisible()

  // Shop staff, in another tab, call the payment off on the Orders page.
  const staff = await context.newPage()
  await staff.goto(shop.url(`/orders.html?order=${orderId}`))
  const card = orderCard(staff, orderId)
  await expect(card).toHaveAccessibleDescription('Awaiting payment')
  await card.getByRole('button', { name: 'Cancel payment' }).click()
  await expect(card).toHaveAccessibleDescription('Payment cancelled')
  await expect(card.getByRole('button', { name: 'Cancel payment' })).toHaveCount(0)
  await staff.close()

  // The open checkout page hears of it by its long-poll, with nothing for the buyer to do.
  await expect(outcomeHeading(page, 'Payment cancelled')).toBeVisible()
  await expect(page.getByText('This payment was cancelled by the shop. Nothing was charged.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Test Wallet: Pays' })).toHaveCount(0)
  await freezePageClock(page)
  await page.clock.runFor(3_000)
  await expect(page).not.toHaveURL(checkoutUrl)
  await expect(page).toHaveURL(/\/return\.html\?order=.*&payment_id=pay_/)
  await expect(returnView(page, 'The shop cancelled this payment, so nothing was charged.')).toBeVisible()
  const order = await shop.order(orderId)
  expect(order.paid).toBe(false)
  expect(order.attempts.map((attempt) => attempt.status)).toEqual(['cancelled'])
})
