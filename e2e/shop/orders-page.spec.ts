// The Orders page tells a declined, an expired and a paid attempt apart: a re-paid order lists every attempt
// with the status the shop read from Till and when, and says what fulfilled it. The return page names the
// order and its amount, says what the shop read from Till, and links to the order.
import { expect, test } from './fixtures.ts'
import { endPaymentAndWait, expectOrder, goToCheckout, orderCard, placeOrder, returnView } from './shopper.ts'

const timeOfDay = new Intl.DateTimeFormat('en-IE', { timeStyle: 'medium' })
const dateTime = new Intl.DateTimeFormat('en-IE', { dateStyle: 'medium', timeStyle: 'short' })

test.beforeEach(async ({ page }) => {
  await page.clock.install()
})

test('an order declined, then abandoned until it expired, then paid lists all three attempts and was fulfilled once', async ({
  page,
  shop,
}) => {
  const orderId = await placeOrder(page, shop)

  // Attempt 1: the test wallet declines, and the buyer comes back to the shop.
  await goToCheckout(page, shop)
  await endPaymentAndWait(page, 'declines')
  await expect(returnView(page, 'Your payment failed and nothing was charged.')).toBeVisible()
  await expect(page.getByText('What the shop read from Till: this payment failed.')).toBeVisible()
  await expectOrder(page, shop, orderId, 'Payment failed', 'Not yet')

  // Attempt 2: the buyer opens the checkout again and walks away; the time runs out, and Till's webhook
  // tells the shop, which reads the status from Till.
  await orderCard(page, orderId).getByRole('link', { name: 'Pay for this order' }).click()
  await goToCheckout(page, shop)
  const abandoned = (await shop.order(orderId)).paymentId ?? ''
  await page.goto(shop.url('/'))
  await shop.reachDeadline(abandoned)
  await expect.poll(async () => (await shop.order(orderId)).attempts.map((attempt) => attempt.status)).toEqual(['failed', 'expired'])
  await expectOrder(page, shop, orderId, 'Payment expired', 'Not yet')

  // Attempt 3: paid.
  await orderCard(page, orderId).getByRole('link', { name: 'Pay for this order' }).click()
  await goToCheckout(page, shop)
  await endPaymentAndWait(page, 'pays')
  await expect(returnView(page, 'Thank you! Your order is paid and on its way.')).toBeVisible()
  await expectOrder(page, shop, orderId, 'Paid', 'Once')

  const order = await shop.order(orderId)
  const card = orderCard(page, orderId)
  await expect(card.getByText(`Placed ${dateTime.format(new Date(order.createdAt))}`)).toBeVisible()
  const items = card.getByRole('table', { name: 'Items' })
  await expect(items.getByRole('row')).toHaveText(['1 × Sencha, 100 g€12.50', 'Total€12.50'])

  const payments = card.getByRole('table', { name: 'Payments' })
  await expect(payments.getByRole('row')).toHaveCount(4)
  const expected = ['Failed', 'Expired', 'Paid']
  expect(order.attempts).toHaveLength(3)
  for (const [index, attempt] of order.attempts.entries()) {
    const row = payments.getByRole('row', { name: new RegExp(`^Attempt ${index + 1}\\b`) })
    await expect(row.getByRole('cell')).toHaveText([attempt.paymentId, expected[index] ?? '', timeOfDay.format(new Date(attempt.statusAt))])
  }
  expect(order.paymentId).toBe(order.attempts[2]?.paymentId)

  // The return page and Till's webhook race to fulfil it; one of them did, once, with the paying attempt.
  expect(order.fulfilments).toEqual([
    { at: expect.any(String), paymentId: order.paymentId, by: expect.stringMatching(/^(return|webhook)$/) },
  ])
  const by = order.fulfilments[0]?.by === 'return' ? 'the return page' : 'Till’s webhook'
  await expect(card.getByText(`Fulfilled once, by ${by}, at ${timeOfDay.format(new Date(order.fulfilments[0]?.at ?? ''))}`)).toBeVisible()
  await expect(card.getByRole('link', { name: 'Pay for this order' })).toHaveCount(0)
})

test('the return page names the order and its amount, says what the shop read from Till, and links to the order', async ({
  page,
  shop,
}) => {
  const orderId = await placeOrder(page, shop)
  await goToCheckout(page, shop)
  await endPaymentAndWait(page, 'pays')

  await expect(page.getByRole('heading', { name: 'Your payment' })).toBeVisible()
  await expect(page.getByText(`Order ${orderId}, €12.50.`)).toBeVisible()
  await expect(returnView(page, 'Thank you! Your order is paid and on its way.')).toBeVisible()
  await expect(page.getByText('What the shop read from Till: this payment is paid.')).toBeVisible()

  await page.getByRole('link', { name: `Order ${orderId} on the Orders page` }).click()
  await expect(page).toHaveURL(shop.url(`/orders.html?order=${orderId}`))
  await expect(orderCard(page, orderId)).toHaveAccessibleDescription('Paid')
})

test('a return URL naming another payment says the shop did not ask Till, and still names the order', async ({ page, shop }) => {
  const order = await shop.placeOrder([{ productId: 'sencha', quantity: 2 }])
  await shop.startPayment(order.id)
  await page.goto(shop.url(`/return.html?order=${order.id}&payment_id=pay_forged&status=succeeded`))
  await expect(page.getByText(`Order ${order.id}, €25.00.`)).toBeVisible()
  await expect(page.getByText('This payment is not the one this order waits for, so the shop did not ask Till about it.')).toBeVisible()
  await expectOrder(page, shop, order.id, 'Awaiting payment', 'Not yet')
})
