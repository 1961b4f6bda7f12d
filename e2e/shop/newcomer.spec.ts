// A newcomer runs the demo (`npm start`) and, from the dashboard link it prints and the browser alone,
// makes a merchant, an API key and a webhook endpoint, then sees a buyer's paid order on the Payments page:
// no curl, no command line.
import { freezePageClock, outcomeHeading, payWith } from '../checkout/buyer.ts'
import { expect, test } from './fixtures.ts'
import { goToCheckout, placeOrder } from './shopper.ts'

test('from the demo’s dashboard link to a merchant, a key, a webhook and a paid order, in the browser alone', async ({
  page,
  context,
  shop,
}) => {
  await page.clock.install()
  await page.goto(shop.dashboardInviteUrl ?? 'the demo printed no dashboard link')
  await page.getByLabel('Choose a password').fill('plum-orbit-violet-kettle')
  await page.getByRole('button', { name: 'Create my account' }).click()
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()

  await page.getByRole('link', { name: 'Merchants' }).click()
  const merchant = page.getByRole('form', { name: 'New merchant' })
  await merchant.getByLabel('Name').fill('Corner Café')
  await merchant.getByLabel('Email').fill('hello@corner-cafe.example')
  await merchant.getByRole('button', { name: 'Create merchant' }).click()
  await expect(page.getByRole('rowheader', { name: 'Corner Café' })).toBeVisible()

  await page.getByRole('link', { name: 'API keys' }).click()
  await page.getByLabel('Name').fill('Corner Café backend')
  await page.getByRole('button', { name: 'Create API key' }).click()
  await expect(page.getByRole('heading', { name: 'New key: Corner Café backend' })).toBeVisible()

  await page.getByRole('link', { name: 'Webhooks' }).click()
  await page.getByLabel('Merchant').selectOption({ label: 'Corner Café' })
  await expect(page.getByText('No endpoints yet.')).toBeVisible()
  // Till checks that it can reach the endpoint: the demo's own HTTPS server stands in for the café's.
  const endpoint = shop.url('/corner-cafe/webhooks')
  await page.getByLabel('URL').fill(endpoint)
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  await expect(page.getByRole('region', { name: /^Signing secret for / })).toBeVisible()
  await expect(page.getByRole('rowheader', { name: endpoint })).toBeVisible()

  // A buyer pays an order in the shop, in another tab; the Payments page shows it without a reload.
  await page.getByRole('link', { name: 'Payments' }).click()
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()
  const buyer = await context.newPage()
  await buyer.clock.install()
  const orderId = await placeOrder(buyer, shop)
  await goToCheckout(buyer, shop)
  await freezePageClock(buyer)
  await payWith(buyer, 'pays')
  await expect(outcomeHeading(buyer, 'Payment successful')).toBeVisible()
  const { paymentId } = await shop.order(orderId)
  await expect(page.getByRole('row').filter({ hasText: paymentId ?? 'no payment' })).toContainText('Succeeded')
})
