// The WebView specs' world: a sandbox Till behind HTTPS (its checkout pages at https://127.0.0.1:<port>),
// and the app's merchant backend, which verifies a payment with Till before it fulfils the order.
import { expect, startTill, type Till, test as base } from '../fixtures.ts'
import type { MerchantPaymentStatus } from '@till/contract'
import { startHttpsFront } from './https-front.ts'

export { expect }

/** The app's backend for one order: it fulfils the order once, and only when Till says the payment succeeded. */
export interface OrderBackend {
  verify(paymentId: string): Promise<'paid' | Exclude<MerchantPaymentStatus, 'succeeded'>>
  fulfilments(): number
}

export interface WebviewTill extends Till {
  order(): OrderBackend
}

export const test = base.extend<object, { webviewTill: WebviewTill }>({
  webviewTill: [
    async ({}, use) => {
      const front = await startHttpsFront()
      try {
        const service = await startTill(['--checkout-url', `${front.origin}/checkout`])
        try {
          front.forwardTo(service.till.baseUrl)
          const till = service.till
          const order = (): OrderBackend => {
            const shipped = new Set<string>()
            let fulfilments = 0
            return {
              async verify(paymentId) {
                const { status } = await till.status(paymentId)
                if (status !== 'succeeded') return status
                // Fulfilled once per payment, however many messages and checks arrive.
                if (!shipped.has(paymentId)) {
                  shipped.add(paymentId)
                  fulfilments++
                }
                return 'paid'
              },
              fulfilments: () => fulfilments,
            }
          }
          await use({ ...till, order })
        } finally {
          await service.stop()
        }
      } finally {
        await front.close()
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
})
