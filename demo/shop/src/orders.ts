// Every order and what happened to it: when it was placed, its items, every payment attempt with the status
// the shop read from Till (and when), each fulfilment with what fulfilled it (never more than one), and its
// refunds with their links: the claim link for the buyer, the pay link for the shop's own wallet.
// `?order=<id>` shows that one order: where the return page links.
import { html, nothing, render } from 'lit'
import { cancelPayment, type Order, order as fetchOrder, orders as fetchOrders, refundOrder } from './api.ts'
import { showProblem } from './layout.ts'
import { dateTime, orderState, REFUND_STATUS_LABEL, SOURCE_LABEL, STATUS_LABEL, timeOfDay } from './payment-words.ts'

const root = document.querySelector<HTMLElement>('#orders')!
const only = new URLSearchParams(location.search).get('order')

const time = (iso: string, format: Intl.DateTimeFormat) =>
  html`<time datetime=${iso} title=${dateTime.format(new Date(iso))}>${format.format(new Date(iso))}</time>`

function fulfilment(order: Order) {
  const [first, ...more] = order.fulfilments
  if (first === undefined) return html`<p class="fulfilment">Not fulfilled yet.</p>`
  if (more.length === 0) {
    const at = time(first.at, timeOfDay)
    return html`<p class="fulfilment">Fulfilled once, by ${SOURCE_LABEL[first.by]}, at ${at} (<code>${first.paymentId}</code>).</p>`
  }
  // Never expected: the order store's compare-and-set lets one fulfilment through. Shown, not hidden.
  return html`<p class="fulfilment problem">Fulfilled ${order.fulfilments.length} times:</p>
    <ul>
      ${order.fulfilments.map((f) => html`<li>by ${SOURCE_LABEL[f.by]} at ${time(f.at, timeOfDay)} (<code>${f.paymentId}</code>)</li>`)}
    </ul>`
}

function attempts(order: Order) {
  if (order.attempts.length === 0) return html`<p>No payment started.</p>`
  return html`<table class="attempts">
    <caption>Payments</caption>
    <thead>
      <tr><th scope="col">Attempt</th><th scope="col">Payment</th><th scope="col">Status</th><th scope="col">Since</th></tr>
    </thead>
    <tbody>
      ${order.attempts.map(
        (attempt, index) => html`<tr>
          <th scope="row">Attempt ${index + 1}</th>
          <td><code>${attempt.paymentId}</code></td>
          <td><span class=${`status status-${attempt.status}`}>${STATUS_LABEL[attempt.status]}</span></td>
          <td>${time(attempt.statusAt, timeOfDay)}</td>
        </tr>`,
      )}
    </tbody>
  </table>`
}

function refunds(order: Order) {
  if (order.refunds.length === 0) return nothing
  return html`<table class="refunds">
    <caption>Refunds</caption>
    <thead>
      <tr><th scope="col">Refund</th><th scope="col" class="amount">Amount</th><th scope="col">Status</th><th scope="col">Since</th><th scope="col">Links</th></tr>
    </thead>
    <tbody>
      ${order.refunds.map(
        (refund) => html`<tr>
          <th scope="row"><code>${refund.refundId}</code></th>
          <td class="amount">${refund.amount?.formatted ?? nothing}<br /><span class="tokens">${refund.tokens}</span></td>
          <td><span class=${`status refund-${refund.status}`}>${REFUND_STATUS_LABEL[refund.status]}</span></td>
          <td>${time(refund.statusAt, timeOfDay)}</td>
          <td class="refund-links">
            ${refund.claimUrl ? html`<a href=${refund.claimUrl} target="_blank" rel="noopener noreferrer">Claim link (send it to the buyer)</a>` : nothing}
            ${refund.payUrl ? html`<a href=${refund.payUrl} target="_blank" rel="noopener noreferrer">Pay link (for your wallet)</a>` : nothing}
          </td>
        </tr>`,
      )}
    </tbody>
  </table>`
}

/** A paid order nothing was refunded of yet (a failed or cancelled refund gave back what it held). */
const refundable = (order: Order) =>
  order.paid && !order.refunds.some((refund) => refund.status !== 'failed' && refund.status !== 'cancelled')

function orderCard(order: Order) {
  const headingId = `order-${order.id}-heading`
  const stateId = `order-${order.id}-state`
  return html`<article class="order" id=${`order-${order.id}`} aria-labelledby=${headingId} aria-describedby=${stateId}>
    <header>
      <h2 id=${headingId}>Order <code>${order.id}</code></h2>
      <p class="order-state" id=${stateId}>${orderState(order)}</p>
    </header>
    <p class="placed">Placed ${time(order.createdAt, dateTime)}</p>
    <table class="items">
      <caption>Items</caption>
      <tbody>
        ${order.lines.map((line) => html`<tr><td>${line.quantity} × ${line.name}</td><td class="amount">${line.lineTotal.formatted}</td></tr>`)}
      </tbody>
      <tfoot>
        <tr><th scope="row">Total</th><td class="amount">${order.total.formatted}</td></tr>
      </tfoot>
    </table>
    ${attempts(order)} ${fulfilment(order)} ${refunds(order)}
    ${order.paid ? nothing : html`<p><a href=${`./order.html?order=${encodeURIComponent(order.id)}`}>Pay for this order</a></p>`}
    ${openAttempt(order) ? html`<p><button type="button" @click=${() => cancel(order)}>Cancel payment</button></p>` : nothing}
    ${refundable(order) ? html`<p><button type="button" @click=${() => refund(order)}>Refund this order</button></p>` : nothing}
  </article>`
}

/** The order's latest payment while the buyer may still pay it: the one the shop can call off. */
const openAttempt = (order: Order) => !order.paid && order.attempts.at(-1)?.status === 'pending'

async function cancel(order: Order): Promise<void> {
  try {
    await cancelPayment(order.id)
    await show()
  } catch (error) {
    showProblem(root, error)
  }
}

async function refund(order: Order): Promise<void> {
  try {
    await refundOrder(order.id)
    await show()
  } catch (error) {
    showProblem(root, error)
  }
}

async function show(): Promise<void> {
  const list = only ? [await fetchOrder(only)] : await fetchOrders()
  render(
    list.length === 0
      ? html`<p>No orders yet. <a href="./">Browse the tea.</a></p>`
      : html`${only ? html`<p><a href="./orders.html">All orders</a></p>` : nothing}${list.map(orderCard)}`,
    root,
  )
}

try {
  await show()
} catch (error) {
  showProblem(root, error)
}
