// The pictures demo/README.md shows: the shop (home, cart, return, and the Orders page with an order paid at
// its second attempt) and Till's checkout page, at a desktop and a phone width, taken from a real run and
// overwritten by every run, so that the docs show what a buyer sees today. Each is taken once its page's
// heading (and content) is there. Order ids, payment ids and times differ from run to run, and so do the
// images.
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures.ts'
import { endPaymentAndWait, goToCheckout, orderCard, returnView } from './shopper.ts'

const DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))

const shoot = (page: Page, name: string, width: number) =>
  page.screenshot({ path: `${DIR}${name}-${width}.png`, fullPage: true, animations: 'disabled', caret: 'hide' })

for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  test.describe(`at ${width} px wide`, () => {
    test.use({ viewport: { width, height }, deviceScaleFactor: 1, colorScheme: 'light' })

    test('screenshots of the shop and the checkout page, into docs/screenshots', async ({ page, shop }) => {
      await page.clock.install()
      await page.goto(shop.url('/'))
      await expect(page.getByRole('heading', { name: 'Tea and teaware', level: 1 })).toBeVisible()
      await expect(page.getByRole('button', { name: 'Add to cart: Sencha, 100 g' })).toBeVisible()
      await shoot(page, 'shop-home', width)

      await page.getByRole('button', { name: 'Add to cart: Sencha, 100 g' }).click()
      await expect(page.getByRole('link', { name: 'Cart (1)' })).toBeVisible()
      await page.getByRole('link', { name: 'Cart (1)' }).click()
      await expect(page.getByRole('heading', { name: 'Your cart', level: 1 })).toBeVisible()
      await expect(page.getByRole('row', { name: /Sencha, 100 g/ })).toContainText('€12.50')
      await shoot(page, 'shop-cart', width)

      await page.getByRole('button', { name: 'Place order' }).click()
      await expect(page.getByRole('heading', { name: 'Review and pay' })).toBeVisible()
      const orderId = new URL(page.url()).searchParams.get('order') ?? ''
      await goToCheckout(page, shop)
      await expect(page.getByRole('button', { name: /^Test Wallet: Pays/ })).toBeVisible()
      await shoot(page, 'checkout', width)

      // A declined attempt first, so that the Orders page shows an order paid at the second attempt.
      await endPaymentAndWait(page, 'declines')
      await expect(returnView(page, 'Your payment failed and nothing was charged.')).toBeVisible()
      await page.goto(shop.url(`/order.html?order=${orderId}`))
      await goToCheckout(page, shop)
      await endPaymentAndWait(page, 'pays')
      await expect(page.getByRole('heading', { name: 'Your payment', level: 1 })).toBeVisible()
      await expect(returnView(page, 'Thank you! Your order is paid and on its way.')).toBeVisible()
      await expect(page.getByText('What the shop read from Till: this payment is paid.')).toBeVisible()
      await shoot(page, 'shop-return', width)

      await page.getByRole('link', { name: `Order ${orderId} on the Orders page` }).click()
      await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible()
      await expect(orderCard(page, orderId)).toHaveAccessibleDescription('Paid')
      await expect(orderCard(page, orderId).getByText(/^Fulfilled once, by /)).toBeVisible()
      await expect(orderCard(page, orderId).getByRole('table', { name: 'Payments' }).getByRole('row')).toHaveCount(3)
      await shoot(page, 'shop-orders', width)
    })
  })
}
