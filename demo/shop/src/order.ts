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
      <table class="order-lines">
        <caption class="visually-hidden">Items in this order</caption>
        <thead><tr><th scope="col">Item</th><th scope="col" class="amount">Amount</th></tr></thead>
        <tbody>
          ${order.lines.map(
            (line) => html`<tr>
              <th scope="row">${line.quantity} × ${line.name}</th>
              <td class="amount">${line.lineTotal.formatted}</td>
            </tr>`,
          )}
        </tbody>
        <tfoot><tr class="total"><th scope="row">Total</th><td class="amount">${order.total.formatted}</td></tr></tfoot>
      </table>
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
