// The express router's test world: a real Till (the service on this file's PGlite, sandbox mode, listening on
// 127.0.0.1) and a merchant backend (an Express app with the router mounted) in front of it.
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { SimulateOutcome } from '@till/contract'
import express, { type Express } from 'express'
import { afterAll, beforeEach } from 'vitest'
import { createAccount, useTestApp, type Account } from '@till/service/test-fixtures'
import { memoryOrderStore, type PayableOrder } from '../src/orders.ts'
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
  /** Every onPaid call, in order. */
  fulfilled: { orderId: string; paymentId: string }[]
  errors: unknown[]
  order(value: bigint, currency?: string): ShopOrder
  close(): Promise<void>
}

export interface TillWorld {
  baseUrl: string
  account: Account
  /** The payment row as Till stored it. */
  payment(paymentId: string): Promise<Record<string, unknown> | undefined>
  simulate(paymentId: string, outcome: SimulateOutcome): Promise<void>
  /** A merchant backend on this Till; `options` override the defaults (store, return URL, hooks). */
  shop(options?: Partial<PayRouterOptions<ShopOrder>>): Promise<Shop>
}

let sequence = 0

export function useTill(): TillWorld {
  const context = useTestApp({ config: { sandbox: true } })
  const shops: Shop[] = []
  const world = {} as TillWorld

  beforeEach(async () => {
    if (world.baseUrl === undefined) {
      await context.app.listen({ host: '127.0.0.1', port: 0 })
      const { port } = context.app.server.address() as AddressInfo
      world.baseUrl = `http://127.0.0.1:${port}`
    }
    world.account = await createAccount(context.tdb.db, { sandbox: true })
  })
  afterAll(async () => {
    await Promise.all(shops.map((shop) => shop.close()))
  })

  world.payment = async (paymentId) => (await context.tdb.db.query('SELECT * FROM payments WHERE id = $1', [paymentId]))[0]
  world.simulate = async (paymentId, outcome) => {
    const response = await fetch(`${world.baseUrl}/v1/sandbox/payments/${paymentId}/simulate`, {
      method: 'POST',
      headers: { ...world.account.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ outcome }),
    })
    if (!response.ok) throw new Error(`simulate ${outcome}: ${response.status} ${await response.text()}`)
  }
  world.shop = async (options = {}) => {
    const orders = new Map<string, ShopOrder>()
    const fulfilled: Shop['fulfilled'] = []
    const errors: unknown[] = []
    const app: Express = express()
    app.use(
      '/pay',
      payRouter<ShopOrder>({
        till: { baseUrl: world.baseUrl, apiKey: world.account.apiKey, merchantId: world.account.merchantId },
        orders: memoryOrderStore(orders),
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
