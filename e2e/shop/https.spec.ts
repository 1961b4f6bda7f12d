// A buyer's whole purchase in the demo is HTTPS: the shop's pages, Till's checkout page behind the demo's TLS
// front, everything those pages load, and the return page. A browser marks none of them "Not secure" (the
// one warning left is for the certificate made at start-up).
import { expect, test } from './fixtures.ts'
import { endPaymentAndWait, goToCheckout, placeOrder } from './shopper.ts'

test('every page and every request of a purchase is HTTPS, the checkout page included', async ({ page, shop }) => {
  const insecure: string[] = []
  page.on('request', (request) => {
    const { protocol } = new URL(request.url())
    if (protocol !== 'https:' && protocol !== 'data:' && protocol !== 'blob:') insecure.push(request.url())
  })
  await page.clock.install()

  await placeOrder(page, shop)
  await goToCheckout(page, shop)
  expect(new URL(page.url()).protocol).toBe('https:')
  await endPaymentAndWait(page, 'pays')
  await page.waitForURL((url) => url.pathname === '/return.html')

  expect(insecure).toEqual([])
})
