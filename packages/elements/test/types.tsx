// Type tests (tsc only, never run): the elements' typings as a shop's TypeScript sees them.
import type { PayCreatedEvent } from '../src/pay-button.ts'
import type {} from '../src/jsx.d.ts'

// Tag names map to the classes; events are typed on any element, document and window.
export const button: HTMLElement & { action?: string } = document.createElement('pay-button')
export const returnView: 'checking' | string | undefined = document.querySelector('pay-return')?.view
document.addEventListener('pay-created', (event) => event.detail.gatewayUrl.startsWith('https:'))
document.querySelector('pay-return')?.addEventListener('pay-status', (event) => event.detail.isFinal)
addEventListener('pay-error', (event) => event.detail.code.length)

// JSX: attributes, booleans and event props of the exact event names.
export const jsx = [
  <pay-button action="/pay/checkout" order-id="ord_1" disabled onpay-created={(event) => event.detail.paymentId}>
    Pay
  </pay-button>,
  <pay-return
    verify="/pay/verify"
    poll-in-ms={1500}
    onpay-status={(event) => event.detail.status}
    onpay-error={(event) => event.detail.message}
  />,
  // @ts-expect-error: not an attribute of <pay-button>
  <pay-button order="ord_1" />,
  // (TypeScript does not check hyphenated JSX attribute names it does not know, such as a misspelt
  // `onpay-stauts`: only the types of the known ones.)
  // @ts-expect-error: order-id is a string
  <pay-button order-id={42} />,
  // @ts-expect-error: a pay-status listener takes a PayStatusEvent
  <pay-return onpay-status={(event: PayCreatedEvent) => event} />,
]
