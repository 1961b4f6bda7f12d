// The page the checkout sends the buyer back to. It names the order the return URL is for and its amount
// (from the shop's backend), and says what the shop read from Till: <pay-return> asks the backend, which
// reads the payment's status from Till server-side; nothing in this page's address is taken as proof.
import '@till/elements/pay-return/define'
import type { PayStatusEvent } from '@till/elements/pay-return'
import { order as fetchOrder } from './api.ts'
import { showProblem } from './layout.ts'
import { TILL_SAYS } from './payment-words.ts'

const orderId = new URLSearchParams(location.search).get('order')
const summary = document.querySelector<HTMLElement>('#order-summary')!
const tillStatus = document.querySelector<HTMLElement>('#till-status')!
const orderLink = document.querySelector<HTMLAnchorElement>('#order-link')!

document.querySelector('pay-return')?.addEventListener('pay-status', (event) => {
  const { status } = (event as PayStatusEvent).detail
  tillStatus.textContent =
    status === 'mismatch'
      ? 'This payment is not the one this order waits for, so the shop did not ask Till about it.'
      : `What the shop read from Till: this payment ${TILL_SAYS[status]}.`
})

if (orderId) {
  orderLink.href = `./orders.html?order=${encodeURIComponent(orderId)}`
  orderLink.textContent = `Order ${orderId} on the Orders page`
  try {
    const order = await fetchOrder(orderId)
    const id = document.createElement('code')
    id.textContent = order.id
    const amount = document.createElement('strong')
    amount.textContent = order.total.formatted
    summary.replaceChildren('Order ', id, ', ', amount, '.')
  } catch (error) {
    showProblem(summary, error)
  }
}
