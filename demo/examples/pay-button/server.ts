// The smallest shop backend with a pay button: docs/merchant-integration.md ("The server: payRouter") shows
// this file, and e2e/shop/example.spec.ts runs it.
import { fileURLToPath } from 'node:url'
import express from 'express'
import { memoryOrderStore, payRouter } from '@till/express'

export function exampleShop(till: { baseUrl: string; apiKey: string; merchantId: string }, shopOrigin: string) {
  // Your order store: the amount is read here, on the server, never taken from the browser.
  const orders = new Map([['ord_1001', { id: 'ord_1001', amount: { currency: 'EUR', value: 1999n } }]])

  const app = express()
  app.use(
    '/pay',
    payRouter({
      till, // { baseUrl, apiKey, merchantId }: the API key stays on this server
      orders: memoryOrderStore(orders),
      returnUrl: `${shopOrigin}/thanks.html`,
      onPaid: (order) => console.log(`order ${order.id} is paid: ship it`),
    }),
  )
  app.use(express.static(import.meta.dirname)) // index.html and thanks.html
  // The elements' prebuilt bundle (Lit included); or serve your own build of @till/elements.
  app.get('/pay-elements.js', (_request, response) =>
    response.sendFile(fileURLToPath(import.meta.resolve('@till/elements/pay-elements.js'))),
  )
  return app
}
