// The shop specs' world: the demo stack playwright.config.ts starts (the service in sandbox mode, the demo
// backend and the built shop over HTTPS), read from the state file it writes once ready.
import { readFileSync } from 'node:fs'
import type { APIRequestContext } from '@playwright/test'
import type { SimulateOutcome } from '@till/contract'
import { startDemoStack } from '@till/demo/stack'
import { expect, test as base } from '../fixtures.ts'

export { expect }

export type ReturnMode = 'https' | 'http' | 'malformed' | 'missing'

export interface OrderView {
  id: string
  createdAt: string
  paymentId: string | null
  paid: boolean
  /** Every payment of the order, oldest first, with the status the shop last read from Till. */
  attempts: { paymentId: string; status: string; statusAt: string }[]
  fulfilments: { at: string; paymentId: string; by: string }[]
  /** Every refund of the order, oldest first, with the status the shop last read from Till. */
  refunds: { refundId: string; status: string; tokens: string; claimUrl: string | null; payUrl: string | null }[]
}

export interface Shop {
  /** https://127.0.0.1:<port> */
  origin: string
  url(pathAndQuery: string): string
  /** The sandbox merchant's API key, which lives in the demo backend: no browser may ever see it. */
  apiKey: string
  /** The base address of Till's checkout pages: gatewayUrls start with it. */
  checkoutUrl: string
  /** The sandbox Till the shop's backend uses, for other merchant backends in the specs. */
  till: { baseUrl: string; apiKey: string; merchantId: string }
  /** The dashboard's single-use invitation for the sandbox's owner, as `npm start` prints it ("Dashboard: …"). */
  dashboardInviteUrl: string | undefined
  /** The order as the shop's backend has it. */
  order(orderId: string): Promise<OrderView>
  /** Places an order through the shop's API, as its cart page does. */
  placeOrder(items: { productId: string; quantity: number }[], returnMode?: ReturnMode): Promise<OrderView>
  /** Starts the order's payment through the shop's backend, as <pay-button> does. */
  startPayment(orderId: string): Promise<{ paymentId: string; gatewayUrl: string }>
  /** Till's sandbox simulate endpoint: what a wallet and the network would do to the payment. */
  simulate(paymentId: string, outcome: SimulateOutcome): Promise<void>
  /**
   * Till's sandbox confirm endpoint: the network confirms the slow test wallet's transaction now (the
   * stack's service holds it until then: --sandbox-hold-confirmations in playwright.config.ts).
   */
  confirm(paymentId: string): Promise<void>
  /**
   * Till's sandbox reach-deadline endpoint: the pending payment's time runs out now, and Till expires it as
   * it would any payment whose buyer walked away.
   */
  reachDeadline(paymentId: string): Promise<void>
}

interface StackState {
  shopUrl: string
  till: { baseUrl: string; checkoutUrl: string; apiKey: string; merchantId: string; dashboardInviteUrl?: string }
}

async function ok<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  if (!response.ok()) throw new Error(`${response.url()} answered ${response.status()}: ${await response.text()}`)
  return (await response.json()) as T
}

/** The shop of a running demo stack, driven through its API as its pages do. */
function shopOf(state: StackState, api: APIRequestContext): Shop {
  const url = (pathAndQuery: string): string => new URL(pathAndQuery, state.shopUrl).href
  const sandboxUrl = (paymentId: string, action: string): string =>
    `${state.till.baseUrl}/v1/sandbox/payments/${encodeURIComponent(paymentId)}/${action}`
  const merchantHeaders = { 'Api-Key': state.till.apiKey, 'Merchant-Id': state.till.merchantId }
  return {
    origin: state.shopUrl,
    url,
    apiKey: state.till.apiKey,
    checkoutUrl: state.till.checkoutUrl,
    till: { baseUrl: state.till.baseUrl, apiKey: state.till.apiKey, merchantId: state.till.merchantId },
    dashboardInviteUrl: state.till.dashboardInviteUrl,
    order: async (orderId) => ok(await api.get(url(`/api/orders/${orderId}`))),
    placeOrder: async (items, returnMode = 'https') => ok(await api.post(url('/api/orders'), { data: { items, returnMode } })),
    startPayment: async (orderId) => ok(await api.post(url('/pay/checkout'), { data: { orderId } })),
    simulate: async (paymentId, outcome) => {
      await ok(await api.post(sandboxUrl(paymentId, 'simulate'), { headers: merchantHeaders, data: { outcome } }))
    },
    confirm: async (paymentId) => {
      await ok(await api.post(sandboxUrl(paymentId, 'confirm'), { headers: merchantHeaders }))
    },
    reachDeadline: async (paymentId) => {
      await ok(await api.post(sandboxUrl(paymentId, 'reach-deadline'), { headers: merchantHeaders }))
    },
  }
}

/** A demo shop whose payments are made on a local chain (`npm start -- --chain local`), and that chain. */
export interface LocalChainShop extends Shop {
  /** merchantAccount: the shop's receiving account, CAIP-10 (`eip155:31337:0x…`), an anvil dev account. */
  chain: { rpcUrl: string; usdc: string; devWallet: string; merchantAccount: string }
}

export const test = base.extend<object, { shop: Shop; localChainShop: LocalChainShop }>({
  shop: [
    async ({ playwright }, use) => {
      const state = JSON.parse(readFileSync(process.env.TILL_E2E_SHOP_STATE ?? '', 'utf8')) as StackState
      const api = await playwright.request.newContext({ ignoreHTTPSErrors: true })
      await use(shopOf(state, api))
      await api.dispose()
    },
    { scope: 'worker' },
  ],

  localChainShop: [
    async ({ playwright }, use) => {
      // The demo's own stack on a local chain; anvil mines each transaction at once, one confirmation.
      const stack = await startDemoStack({ port: 0, tillPort: 0, build: false, localChain: { confirmations: 1 } })
      const api = await playwright.request.newContext({ ignoreHTTPSErrors: true })
      try {
        const chain = stack.localChain
        if (!chain) throw new Error('the demo stack started without its local chain')
        await use({ ...shopOf({ shopUrl: stack.shopUrl, till: stack.till }, api), chain })
      } finally {
        await api.dispose()
        await stack.stop()
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
})
