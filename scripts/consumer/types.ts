// Type-checked by the consumer test under a default strict `tsc --init` with skipLibCheck off: the kit's
// declarations as a merchant's TypeScript sees them.
import { TillClient } from '@till/client'
import { CreatePaymentRequest, type VerifyReply } from '@till/contract'
import type { PayButton, PayCreatedEvent } from '@till/elements'
import { memoryOrderStore, type PayableOrder, payRouter } from '@till/express'
import { type BridgeResult, decideNavigation, embeddedCheckoutUrl, type NavigationDecision, parseBridgeMessage } from '@till/webview'

const till = new TillClient({ baseUrl: 'http://127.0.0.1:4000', apiKey: 'till_sk_test_example', merchantId: 'mer_example' })
const orders = new Map<string, PayableOrder>([['ord_1', { id: 'ord_1', amount: { currency: 'EUR', value: 1999n } }]])
export const router = payRouter({ till, orders: memoryOrderStore(orders), returnUrl: 'https://shop.example/thanks' })
export const request = CreatePaymentRequest.parse({ amount: { unit: 'iso4217/EUR', value: '1999' }, referenceId: 'ord_1' })
export const reply: VerifyReply = { status: 'pending', isFinal: false, pollInMs: 2_000 }
export function onCreated(button: PayButton, event: PayCreatedEvent): string {
  return `${button.tagName} ${event.detail.gatewayUrl}`
}

// The embedded checkout's host kit (its main entry; `@till/webview/react-native` needs React Native's types).
export const checkoutAddress: string = embeddedCheckoutUrl('https://pay.example/checkout/pay_1', { returnUrl: 'myapp://done' })
export const decision: NavigationDecision = decideNavigation(checkoutAddress)
export function onBridge(data: unknown): string {
  const signal: BridgeResult = parseBridgeMessage(data)
  return signal.kind === 'success' ? 'verify server-side' : signal.kind === 'failure' ? (signal.error ?? 'failed') : signal.reason
}
