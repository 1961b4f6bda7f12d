// The express router's test world: a real Till (`till serve --sandbox`, started through @till/testing as a
// shop's own tests would start it, on this file's database so that the rows it stores can be read) and a
// merchant backend (an Express app with the router mounted) in front of it.
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Payment, SimulateOutcome } from '@till/contract'
import express, { type Express, type RequestHandler } from 'express'
import { TILL_BIN } from '@till/service/spawn'
import { openTestDatabase, type TestDatabase } from '@till/service/test-fixtures'
import { type SandboxTill, startSandboxTill } from '@till/testing'
import { afterAll, beforeAll } from 'vitest'
import { memoryOrderStore, type OrderStore, type PayableOrder } from '../src/orders.ts'
import { payRouter } from '../src/router.ts'
import type { PayRouterOptions } from '../src/options.ts'

export const RETURN_URL = 'https://shop.example/return'

export interface ShopOrder extends PayableOrder {
  title: string
}

export interface Shop {
  /** http://127.0.0.1:<port>, the router mounted at /pay. */
  origin: string
  orders: Map<string, ShopOrder>
  /** The order store the router was given. */
  store: OrderStore<ShopOrder>
  /** Every onPaid call, in order. */
  fulfilled: { orderId: string; paymentId: string }[]
  errors: unknown[]
  order(value: bigint, currency?: string): ShopOrder
  close(): Promise<void>
}

export interface TillWorld {
  baseUrl: string
  /** The sandbox merchant's credentials. */
  account: { apiKey: string; merchantId: string }
  /** The payment as Till's partner listing shows it: what Till keeps of it, through its public API. */
  payment(paymentId: string): Promise<Payment | undefined>
  /**
   * Where the checkout page sends the buyer once the payment has ended (spec 4.7), as the page's own data
   * says: the shop's return URL with `payment_id`, or null when redirecting is disabled.
   */
  redirectOf(paymentId: string): Promise<string | null>
  simulate(paymentId: string, outcome: SimulateOutcome): Promise<void>
  /** A merchant backend on this Till; `options` override the defaults (store, return URL, hooks). */
  shop(options?: Partial<PayRouterOptions<ShopOrder>>, setup?: ShopSetup): Promise<Shop>
}

export interface ShopSetup {
  /** App-level middleware mounted before the router, as a shop's own code might. */
  before?: RequestHandler[]
  /** The order store over the shop's Map; `memoryOrderStore(orders)` by default. */
  store?: (orders: Map<string, ShopOrder>) => OrderStore<ShopOrder>
}

let sequence = 0

export function useTill(): TillWorld {
  const shops: Shop[] = []
  const world = {} as TillWorld
  let tdb: TestDatabase | undefined
  let sandbox: SandboxTill | undefined

  beforeAll(async () => {
    tdb = await openTestDatabase()
    sandbox = await startSandboxTill({ command: [process.execPath, TILL_BIN], args: ['--database-url', tdb.url] })
    world.baseUrl = sandbox.baseUrl
    world.account = { apiKey: sandbox.apiKey, merchantId: sandbox.merchantId }
  })
  afterAll(async () => {
    await Promise.all(shops.map((shop) => shop.close()))
    await sandbox?.stop()
    await tdb?.close()
  })

  world.payment = async (paymentId) => {
    for await (const payment of sandbox?.client.payments.list({ limit: 200 }) ?? []) if (payment.paymentId === paymentId) return payment
    return undefined
  }
  world.redirectOf = async (paymentId) => {
    const page = await fetch(`${String(sandbox?.checkoutUrl)}/${paymentId}`)
    const data = /<script type="application\/json" id="checkout-data">([^<]*)<\/script>/.exec(await page.text())?.[1]
    const { session } = JSON.parse(data ?? 'null') as { session: { state: { redirect: { url: string } | null } } }
    return session.state.redirect?.url ?? null
  }
  world.simulate = async (paymentId, outcome) => {
    await sandbox?.client.sandbox.simulate(paymentId, outcome)
  }
  world.shop = async (options = {}, setup = {}) => {
    const orders = new Map<string, ShopOrder>()
    const store = setup.store?.(orders) ?? memoryOrderStore(orders)
    const fulfilled: Shop['fulfilled'] = []
    const errors: unknown[] = []
    const app: Express = express()
    for (const handler of setup.before ?? []) app.use(handler)
    app.use(
      '/pay',
      payRouter<ShopOrder>({
        till: { baseUrl: world.baseUrl, apiKey: world.account.apiKey, merchantId: world.account.merchantId },
        orders: store,
        returnUrl: RETURN_URL,
        onPaid: (order, paymentId) => {
          fulfilled.push({ orderId: order.id, paymentId })
        },
        onError: (error) => errors.push(error),
        ...options,
      }),
    )
    const server: Server = app.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    const shop: Shop = {
      origin: `http://127.0.0.1:${port}`,
      orders,
      store,
      fulfilled,
      errors,
      order(value, currency = 'EUR') {
        sequence += 1
        const order: ShopOrder = { id: `ord_${Date.now()}_${sequence}`, title: 'Tea', amount: { currency, value } }
        orders.set(order.id, order)
        return order
      },
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    }
    shops.push(shop)
    return shop
  }
  return world
}

export interface Reply {
  status: number
  headers: Headers
  text: string
  json: <T = Record<string, unknown>>() => T
}

/** One HTTP call to the shop; the raw text is kept so tests can look for what must not be in it. */
export async function call(url: string, init: RequestInit = {}): Promise<Reply> {
  const response = await fetch(url, { redirect: 'manual', ...init })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, json: <T>() => JSON.parse(text) as T }
}

export const postJson = (url: string, body: unknown): Promise<Reply> =>
  call(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) })

/** An order of 15.00 EUR whose buyer pressed pay: the payment the shop's router created for it. */
export async function checkout(shop: Shop): Promise<{ order: ShopOrder; paymentId: string }> {
  const order = shop.order(1500n)
  const reply = await postJson(`${shop.origin}/pay/checkout`, { orderId: order.id })
  const { paymentId } = reply.json<{ paymentId: string }>()
  return { order, paymentId }
}
