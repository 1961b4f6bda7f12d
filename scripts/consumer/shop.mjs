// A merchant's shop outside the workspace, as the consumer test installs it: plain Node, the kit from its
// tarballs, HTTPS with the certificate the test hands it. Prints its address once it listens.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:https'
import { fileURLToPath } from 'node:url'
import { memoryOrderStore, payRouter } from '@till/express'
import express from 'express'

const env = (name) => {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set`)
  return value
}

const server = createServer({ key: readFileSync(env('SHOP_KEY')), cert: readFileSync(env('SHOP_CERT')) })
server.listen(0, '127.0.0.1', () => {
  const origin = `https://127.0.0.1:${server.address().port}`
  const orders = new Map([['ord_1001', { id: 'ord_1001', amount: { currency: 'EUR', value: 1999n } }]])
  const app = express()
  app.use(
    '/pay',
    payRouter({
      till: { baseUrl: env('TILL_BASE_URL'), apiKey: env('TILL_API_KEY'), merchantId: env('TILL_MERCHANT_ID') },
      orders: memoryOrderStore(orders),
      returnUrl: `${origin}/thanks.html`,
    }),
  )
  app.use(express.static(import.meta.dirname))
  app.get('/pay-elements.js', (_request, response) =>
    response.sendFile(fileURLToPath(import.meta.resolve('@till/elements/pay-elements.js'))),
  )
  server.on('request', app)
  console.log(origin)
})
