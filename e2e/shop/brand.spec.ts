// The demo shop registers itself with Till as "Till Tea", its logo fetched from the shop's own HTTPS: a
// buyer sees that name and Till's copy of that logo on the checkout page, in both colour schemes.
import { expectNoAxeViolations } from '../axe.ts'
import { expect, test } from './fixtures.ts'
import { goToCheckout, placeOrder } from './shopper.ts'

for (const scheme of ['light', 'dark'] as const) {
  test(`the checkout page shows the shop's name and logo (${scheme} scheme)`, async ({ page, shop }) => {
    await page.emulateMedia({ colorScheme: scheme })
    await page.clock.install()
    await placeOrder(page, shop)
    await goToCheckout(page, shop)
    const header = page.getByRole('main').locator('header')
    await expect(header.getByText('Till Tea', { exact: true })).toBeVisible()
    const logo = header.locator('img')
    // Till's own copy, served beside the page: never the shop's address, which could change under it.
    await expect(logo).toHaveAttribute(
      'src',
      new RegExp(`^${shop.checkoutUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/logos/[0-9a-f]{64}/192\\.webp$`),
    )
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(192)
    await expect(header.getByText('T', { exact: true })).toHaveCount(0)
    await page.clock.pauseAt(Date.now() + 1_000)
    await expectNoAxeViolations(page, `checkout with logo, ${scheme}`)
  })
}
