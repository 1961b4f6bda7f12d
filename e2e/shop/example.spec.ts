// docs/merchant-integration.md's pay-button example is demo/examples/pay-button: its few lines of HTML and
// server code, run here as a shopper would meet them, with JavaScript and without.
import { once } from 'node:events'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { localhostCertificate } from '@till/demo/certificate'
import { exampleShop } from '@till/demo/examples/pay-button'
import { freezePageClock, outcomeHeading, payWith } from '../checkout/buyer.ts'
import { expect, test as base } from './fixtures.ts'

const test = base.extend<object, { example: string }>({
  example: [
    async ({ shop }, use) => {
      const { key, cert } = await localhostCertificate()
      const server: Server = createServer({ key, cert })
      server.listen(0, '127.0.0.1')
      await once(server, 'listening')
      const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
      server.on('request', exampleShop(shop.till, origin))
      await use(origin)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
    { scope: 'worker' },
  ],
})

// Both tests pay the example's one order, ord_1001: the first leaves its payment open, the second finishes it.
test.describe.configure({ mode: 'serial' })

test('without JavaScript, the pay button’s form still takes the shopper to the checkout page', async ({ browser, example, shop }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, ignoreHTTPSErrors: true })
  const page = await context.newPage()
  await page.goto(`${example}/index.html`)
  await page.getByRole('button', { name: 'Pay €19.99' }).click()
  await expect(page).toHaveURL(new RegExp(`^${shop.checkoutUrl}/pay_`))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('€19.99')
  await context.close()
})

test('with JavaScript, the pay button sends the shopper to pay and the thank-you page confirms it', async ({ page, example, shop }) => {
  await page.clock.install()
  await page.goto(`${example}/index.html`)
  await page.getByRole('button', { name: 'Pay €19.99' }).click()
  await expect(page).toHaveURL(new RegExp(`^${shop.checkoutUrl}/pay_`))
  await freezePageClock(page)
  await payWith(page, 'pays')
  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  await page.clock.runFor(3_000)
  await expect(page).toHaveURL(new RegExp(`^${example}/thanks\\.html\\?order=ord_1001&payment_id=pay_`))
  await expect(page.locator('pay-return')).toContainText('Payment received. Thank you!')
})
