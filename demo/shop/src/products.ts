import { html, render } from 'lit'
import { products } from './api.ts'
import { addToCart } from './cart-store.ts'
import { showProblem } from './layout.ts'

const list = document.querySelector<HTMLElement>('#products')!

try {
  const items = await products()
  render(
    items.map(
      (product) => html`<li class="card">
        <span class="picture" aria-hidden="true">${product.picture}</span>
        <h2>${product.name}</h2>
        <p>${product.description}</p>
        <p class="price">${product.price.formatted}</p>
        <button type="button" aria-label=${`Add ${product.name} to cart`} @click=${() => addToCart(product.id)}>Add to cart</button>
      </li>`,
    ),
    list,
  )
} catch (error) {
  showProblem(list, error)
}
