// The cart, and the demo's switch for the return URLs the order's payment is created with.
import { html, render } from 'lit'
import { placeOrder, products, type Product, type ReturnMode } from './api.ts'
import { readCart, writeCart, type Cart } from './cart-store.ts'
import { showProblem } from './layout.ts'

const root = document.querySelector<HTMLElement>('#cart')!

const RETURN_CHOICES: { mode: ReturnMode; label: string; hint: string }[] = [
  { mode: 'https', label: 'HTTPS return URLs', hint: 'the checkout page counts down and sends you back here' },
  { mode: 'http', label: 'http:// return URLs', hint: 'redirect disabled: the checkout page shows a generic end screen' },
  { mode: 'malformed', label: 'A malformed successUrl', hint: 'redirect disabled' },
  { mode: 'missing', label: 'No errorUrl', hint: 'redirect disabled' },
]

let catalog: Product[] = []
let placing = false
let problem = ''

function draw(): void {
  const cart = readCart()
  const lines = catalog.filter((product) => (cart[product.id] ?? 0) > 0)
  if (lines.length === 0) {
    render(html`<p>Your cart is empty. <a href="./">Browse the tea.</a></p>`, root)
    return
  }
  render(
    html`<table>
        <caption class="visually-hidden">Items in your cart</caption>
        <thead><tr><th scope="col">Item</th><th scope="col">Price</th><th scope="col">Quantity</th></tr></thead>
        <tbody>
          ${lines.map(
            (product) => html`<tr>
              <th scope="row">${product.name}</th>
              <td>${product.price.formatted}</td>
              <td>
                <button type="button" aria-label=${`One fewer ${product.name}`} @click=${() => change(cart, product.id, -1)}>−</button>
                <span>${cart[product.id]}</span>
                <button type="button" aria-label=${`One more ${product.name}`} @click=${() => change(cart, product.id, 1)}>+</button>
              </td>
            </tr>`,
          )}
        </tbody>
      </table>
      <form @submit=${place}>
        <fieldset class="return-switch">
          <legend>Return URLs (demo switch)</legend>
          ${RETURN_CHOICES.map(
            (choice, index) => html`<label>
              <input type="radio" name="returnMode" value=${choice.mode} ?checked=${index === 0}>
              ${choice.label} <small>— ${choice.hint}</small>
            </label>`,
          )}
        </fieldset>
        <button type="submit" ?disabled=${placing}>Place order</button>
        ${problem ? html`<p class="problem" role="alert">${problem}</p>` : ''}
      </form>`,
    root,
  )
}

function change(cart: Cart, productId: string, by: number): void {
  const next = (cart[productId] ?? 0) + by
  if (next > 0) cart[productId] = next
  else delete cart[productId]
  writeCart(cart)
  draw()
}

async function place(event: SubmitEvent): Promise<void> {
  event.preventDefault()
  const form = event.currentTarget as HTMLFormElement
  const mode = new FormData(form).get('returnMode') as ReturnMode
  const items = Object.entries(readCart()).map(([productId, quantity]) => ({ productId, quantity }))
  placing = true
  problem = ''
  draw()
  try {
    const order = await placeOrder(items, mode)
    writeCart({})
    location.assign(`./order.html?order=${encodeURIComponent(order.id)}`)
  } catch (error) {
    placing = false
    problem = error instanceof Error ? error.message : String(error)
    draw()
  }
}

try {
  catalog = await products()
  draw()
} catch (error) {
  showProblem(root, error)
}
