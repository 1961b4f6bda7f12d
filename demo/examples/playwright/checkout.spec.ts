import { once } from 'node:events'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { expect, payInSandbox, test } from '@till/testing'
import { localhostCertificate } from '../../server/certificate.ts' // any certificate for 127.0.0.1
import { exampleShop } from '../pay-button/server.ts' // your shop's Express app

// `till` is a sandbox Till of this worker's own (tillOptions.command, or TILL_COMMAND, says how to run it).
test('a buyer pays for order 1001 and the shop shows it paid', async ({ page, till }) => {
  // The shop, served over HTTPS so that its return page is a valid successUrl.
  const { key, cert } = await localhostCertificate()
  const server = createServer({ key, cert }).listen(0, '127.0.0.1')
  await once(server, 'listening')
  const shop = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  server.on('request', exampleShop(till, shop))

  // Playwright's clock runs the checkout page's 3-second countdown at once.
  await page.clock.install()
  await page.goto(`${shop}/index.html`)
  await page.getByRole('button', { name: 'Pay €19.99' }).click()
  const { url, paymentId } = await payInSandbox(page, 'succeeded')

  expect(url).toContain(`${shop}/thanks.html?order=ord_1001`)
  await expect(page.getByText('Payment received. Thank you!')).toBeVisible()
  // What the shop's backend checked before fulfilling: Till's own status, never the redirect.
  expect(await till.client.merchantPayments.status(paymentId)).toEqual({ status: 'succeeded', isFinal: true })
  server.closeAllConnections()
  server.close()
})
