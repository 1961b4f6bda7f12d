import { html, render } from 'lit'
import { products } from './api.ts'
import { addToCart, itemCount, readCart } from './cart-store.ts'
import { showProblem } from './layout.ts'

const list = document.querySelector<HTMLElement>('#products')!
const status = document.querySelector<HTMLElement>('#cart-status')!

function add(productId: string, name: string): void {
  addToCart(productId)
  const count = itemCount(readCart())
  // The count makes each message differ from the last, so adding the same thing twice is announced twice.
  status.textContent = `Added ${name} to your cart. It holds ${count} ${count === 1 ? 'item' : 'items'}.`
}

try {
  const items = await products()
  render(
    items.map(
      (product) => html`<li class="card">
        <img class="picture" src=${product.image.src} alt=${product.image.alt} width="320" height="240">
        <h2>${product.name}</h2>
        <p>${product.description}</p>
        <p class="price">${product.price.formatted}</p>
        <button type="button" aria-label=${`Add to cart: ${product.name}`} @click=${() => add(product.id, product.name)}>Add to cart</button>
      </li>`,
    ),
    list,
  )
} catch (error) {
  showProblem(list, error)
}
