// Every order and what happened to it: paid or not, by which payment, and each fulfilment (there must never
// be more than one).
import { html, render } from 'lit'
import { orders } from './api.ts'
import { showProblem } from './layout.ts'

const root = document.querySelector<HTMLElement>('#orders')!

try {
  const list = await orders()
  render(
    list.length === 0
      ? html`<p>No orders yet. <a href="./">Browse the tea.</a></p>`
      : html`<table>
          <thead>
            <tr><th scope="col">Order</th><th scope="col">Total</th><th scope="col">Status</th><th scope="col">Payment</th><th scope="col">Fulfilled</th></tr>
          </thead>
          <tbody>
            ${list.map(
              (order) => html`<tr>
                <th scope="row"><a href=${`./order.html?order=${encodeURIComponent(order.id)}`}>${order.id}</a></th>
                <td>${order.total.formatted}</td>
                <td>${order.paid ? 'Paid' : 'Not paid'}</td>
                <td><code>${order.paymentId ?? '—'}</code></td>
                <td>${order.fulfilments.length === 0 ? 'Not yet' : order.fulfilments.length === 1 ? 'Once' : `${order.fulfilments.length} times`}</td>
              </tr>`,
            )}
          </tbody>
        </table>`,
    root,
  )
} catch (error) {
  showProblem(root, error)
}
