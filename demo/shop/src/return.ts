import '@till/elements/pay-return/define'
import './layout.ts'

// Back to the order the buyer paid for (or tried to): its id is in the return URL the backend chose.
const orderId = new URLSearchParams(location.search).get('order')
if (orderId) document.querySelector('#order-link')?.setAttribute('href', `./order.html?order=${encodeURIComponent(orderId)}`)
