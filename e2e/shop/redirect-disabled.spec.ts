// The demo's switch gives Till return URLs that are not valid HTTPS: the checkout page then shows its
// generic end view and never sends the buyer anywhere (spec 4.2).
import { freezePageClock, outcomeHeading, payWith } from '../checkout/buyer.ts'
import { expect, test, type ReturnMode } from './fixtures.ts'
import { goToCheckout, placeOrder } from './shopper.ts'

const cases: { mode: ReturnMode; name: string }[] = [
  { mode: 'http', name: 'http:// return URLs' },
  { mode: 'malformed', name: 'a malformed successUrl' },
  { mode: 'missing', name: 'no errorUrl' },
]

for (const { mode, name } of cases) {
  test(`with ${name}, the checkout page ends on its generic view and never navigates`, async ({ page, shop }) => {
    const shopRequests: string[] = []
    await page.clock.install()
    await placeOrder(page, shop, mode)
    await goToCheckout(page, shop)
    const checkoutUrl = page.url()
    page.on('request', (request) => {
      if (request.url().startsWith(shop.origin)) shopRequests.push(request.url())
    })
    await freezePageClock(page)
    await payWith(page, 'pays')

    await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
    await expect(page.getByText('You can close this page now.')).toBeVisible()
    await expect(page.getByRole('progressbar')).toHaveCount(0)
    await page.clock.runFor(30_000)
    await expect(page).toHaveURL(checkoutUrl)
    await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
    expect(shopRequests).toEqual([])
  })
}
