// JSX typings of <pay-button> and <pay-return>: `import type {} from '@till/elements/jsx'` once.
//
// Event props are spelled `onpay-start`, not `onPayStart`: React 19 and Preact add a listener for exactly
// what follows `on` on a custom element (`onPayStart` would listen for an event named `PayStart`), so the
// kebab-case name is the one that works in both.
//
// This file declares the global `JSX.IntrinsicElements` (React 18's types, and any classic JSX setup). With
// React 19's types, whose JSX lives in the `react` module, add in a .d.ts of your own:
//
//   import type { PayElementsIntrinsicElements } from '@till/elements/jsx'
//   declare module 'react' { namespace JSX { interface IntrinsicElements extends PayElementsIntrinsicElements {} } }
import type { PayCreatedEvent, PayStartEvent } from './pay-button.ts'
import type { PayStatusEvent } from './pay-return.ts'
import type { PayErrorEvent } from './shared.ts'

/** What any element takes in JSX, narrowly: the elements need nothing more. */
export interface PayElementsCommonAttributes {
  id?: string
  class?: string
  className?: string
  style?: string | Record<string, string | number>
  slot?: string
  hidden?: boolean
  key?: string | number
  ref?: unknown
  children?: unknown
}

export interface PayButtonAttributes extends PayElementsCommonAttributes {
  /** Where to POST; default: the fallback form's `action`. */
  action?: string
  /** Sent as `orderId`. */
  'order-id'?: string
  disabled?: boolean
  'onpay-start'?: (event: PayStartEvent) => void
  'onpay-created'?: (event: PayCreatedEvent) => void
  'onpay-error'?: (event: PayErrorEvent) => void
}

export interface PayReturnAttributes extends PayElementsCommonAttributes {
  /** The backend's verify URL; the page's query string is added to it. */
  verify?: string
  /** Milliseconds between checks when the reply has no `pollInMs`; default 2000. */
  'poll-in-ms'?: number | string
  'onpay-status'?: (event: PayStatusEvent) => void
  'onpay-error'?: (event: PayErrorEvent) => void
}

export interface PayElementsIntrinsicElements {
  'pay-button': PayButtonAttributes
  'pay-return': PayReturnAttributes
}

declare global {
  // JSX's own shape: `namespace JSX` is how every JSX type setup looks elements up (types only).
  namespace JSX {
    interface IntrinsicElements extends PayElementsIntrinsicElements {}
  }
}
