import type { CheckoutSession } from '@till/contract'
import { gateway } from './api.ts'
import { CheckoutController } from './controller.ts'
import { en } from './strings.ts'

/** What the service embeds in the page as JSON (never as script: the CSP allows none inline). */
type Bootstrap = { token: string; session: CheckoutSession }

function randomAddress(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20))
  return `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`
}

const data = document.getElementById('checkout-data')
const root = document.getElementById('checkout-app')
const live = document.getElementById('checkout-live')
if (data && root && live) {
  const { token, session } = JSON.parse(data.textContent ?? '') as Bootstrap
  root.textContent = ''
  new CheckoutController({
    root,
    live,
    session,
    api: gateway({ paymentId: session.paymentId, token }),
    t: en,
    navigate: (url) => location.replace(url),
    newAddress: randomAddress,
  }).start()
}
