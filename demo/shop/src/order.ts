// The order review page: the order as the server has it, and the pay button. The button's fallback form
// works without JavaScript too (the backend answers it with a redirect to the checkout page).
import '@till/elements/pay-button/define'
import { html, render } from 'lit'
import { order as fetchOrder } from './api.ts'
import { showProblem } from './layout.ts'

const root = document.querySelector<HTMLElement>('#order')!
const orderId = new URLSearchParams(location.search).get('order') ?? ''

try {
  const order = await fetchOrder(orderId)
  render(
    html`<p>Order <code>${order.id}</code></p>
      <ul class="lines">
        ${order.lines.map((line) => html`<li>${line.quantity} × ${line.name} <span>${line.unitPrice.formatted}</span></li>`)}
      </ul>
      <p class="total">Total <strong>${order.total.formatted}</strong></p>
      ${
        order.paid
          ? html`<p class="paid">This order is paid. <a href="./orders.html">See your orders.</a></p>`
          : html`<pay-button>
            <form method="post" action="/pay/checkout">
              <input type="hidden" name="orderId" value=${order.id}>
              <button type="submit">Pay ${order.total.formatted}</button>
            </form>
          </pay-button>`
      }`,
    root,
  )
} catch (error) {
  showProblem(root, error)
}
