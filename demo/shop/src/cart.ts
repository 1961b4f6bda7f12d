// The cart, and the demo's switch for the return URLs the order's payment is created with. The browser keeps
// product ids and quantities; the server prices them (POST /api/quote), line by line and in total.
import { html, render } from 'lit'
import { placeOrder, products, quote, type Product, type Quote, type ReturnMode } from './api.ts'
import { readCart, writeCart, type Cart } from './cart-store.ts'
import { showProblem } from './layout.ts'

const root = document.querySelector<HTMLElement>('#cart')!
const status = document.querySelector<HTMLElement>('#cart-status')!
const heading = document.querySelector<HTMLElement>('h1')!

const RETURN_CHOICES: { mode: ReturnMode; label: string; hint: string }[] = [
  { mode: 'https', label: 'HTTPS return URLs', hint: 'the checkout page counts down and sends you back here' },
  { mode: 'http', label: 'http:// return URLs', hint: 'redirect disabled: the checkout page shows a generic end screen' },
  { mode: 'malformed', label: 'A malformed successUrl', hint: 'redirect disabled' },
  { mode: 'missing', label: 'No errorUrl', hint: 'redirect disabled' },
]

/** The most of one product an order takes (the server's limit too). */
const MAX_QUANTITY = 99

let catalog = new Map<string, Product>()
let priced: Quote | undefined
let placing = false
let problem = ''
let returnMode: ReturnMode = 'https'
/** Only the newest quote is drawn: a slower answer to an older cart must not overwrite it. */
let asked = 0

/** The cart's items the catalogue knows, in the catalogue's order (a stale id in storage is dropped). */
function items(cart: Cart): { productId: string; quantity: number }[] {
  return [...catalog.keys()].filter((id) => (cart[id] ?? 0) > 0).map((productId) => ({ productId, quantity: cart[productId]! }))
}

async function refresh(): Promise<void> {
  const wanted = items(readCart())
  const ticket = ++asked
  if (wanted.length === 0) {
    priced = undefined
  } else {
    const answer = await quote(wanted)
    if (ticket !== asked) return
    priced = answer
  }
  draw()
}

function draw(): void {
  if (priced === undefined) {
    render(html`<p>Your cart is empty. <a href="./">Browse the tea.</a></p>`, root)
    return
  }
  render(
    html`<table class="cart-lines" aria-busy=${placing ? 'true' : 'false'}>
        <caption class="visually-hidden">Items in your cart</caption>
        <thead><tr><th scope="col">Item</th><th scope="col">Quantity</th><th scope="col" class="amount">Amount</th></tr></thead>
        <tbody>
          ${priced.lines.map((line) => {
            const product = catalog.get(line.productId)
            return html`<tr>
              <th scope="row">
                <div class="item">
                  ${product ? html`<img src=${product.image.src} alt="" width="64" height="48">` : ''}
                  <span>${line.name}<br><small>${line.unitPrice.formatted} each</small></span>
                </div>
              </th>
              <td>
                <div class="quantity">
                  <button type="button" aria-label=${`One fewer ${line.name}`} @click=${() => change(line.productId, line.name, -1)}>−</button>
                  <span class="count">${line.quantity}</span>
                  <button type="button" aria-label=${`One more ${line.name}`} ?disabled=${line.quantity >= MAX_QUANTITY} @click=${() => change(line.productId, line.name, 1)}>+</button>
                </div>
                <button type="button" class="link" @click=${() => remove(line.productId, line.name)}>Remove<span class="visually-hidden"> ${line.name}</span></button>
              </td>
              <td class="amount">${line.lineTotal.formatted}</td>
            </tr>`
          })}
        </tbody>
        <tfoot><tr><th scope="row" colspan="2">Total</th><td class="amount">${priced.total.formatted}</td></tr></tfoot>
      </table>
      <form @submit=${place}>
        <fieldset class="return-switch">
          <legend>Return URLs (demo switch)</legend>
          ${RETURN_CHOICES.map(
            (choice) => html`<label>
              <input type="radio" name="returnMode" value=${choice.mode} .checked=${choice.mode === returnMode} @change=${() => (returnMode = choice.mode)}>
              ${choice.label} <small>— ${choice.hint}</small>
            </label>`,
          )}
        </fieldset>
        <button type="submit" class="primary" ?disabled=${placing}>Place order</button>
        ${problem ? html`<p class="problem" role="alert">${problem}</p>` : ''}
      </form>`,
    root,
  )
}

async function update(cart: Cart, message: string, removed: boolean): Promise<void> {
  writeCart(cart)
  try {
    await refresh()
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error)
    draw()
    return
  }
  status.textContent = message
  // The row (and the button pressed) is gone: focus goes back to the top of the cart rather than the page.
  if (removed) heading.focus()
}

function change(productId: string, name: string, by: number): Promise<void> {
  const cart = readCart()
  const next = Math.min((cart[productId] ?? 0) + by, MAX_QUANTITY)
  if (next <= 0) return remove(productId, name)
  cart[productId] = next
  return update(cart, `${name}: ${next} in your cart.`, false)
}

function remove(productId: string, name: string): Promise<void> {
  const cart = readCart()
  delete cart[productId]
  return update(cart, `Removed ${name} from your cart.`, true)
}

async function place(event: SubmitEvent): Promise<void> {
  event.preventDefault()
  placing = true
  problem = ''
  draw()
  try {
    const order = await placeOrder(items(readCart()), returnMode)
    writeCart({})
    location.assign(`./order.html?order=${encodeURIComponent(order.id)}`)
  } catch (error) {
    placing = false
    problem = error instanceof Error ? error.message : String(error)
    draw()
  }
}

try {
  catalog = new Map((await products()).map((product) => [product.id, product]))
  await refresh()
} catch (error) {
  showProblem(root, error)
}
