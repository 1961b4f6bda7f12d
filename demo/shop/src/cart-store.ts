// The cart lives in the browser (product ids and quantities only); prices come from the server.
const KEY = 'till-demo-cart'

export type Cart = Record<string, number>

export function readCart(): Cart {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}')
    return typeof value === 'object' && value !== null ? (value as Cart) : {}
  } catch {
    return {}
  }
}

export function writeCart(cart: Cart): void {
  localStorage.setItem(KEY, JSON.stringify(cart))
  showCount()
}

export function addToCart(productId: string): void {
  const cart = readCart()
  cart[productId] = (cart[productId] ?? 0) + 1
  writeCart(cart)
}

export const itemCount = (cart: Cart): number => Object.values(cart).reduce((sum, n) => sum + n, 0)

/** Every page's header shows how many items the cart holds. */
export function showCount(): void {
  for (const element of document.querySelectorAll('[data-cart-count]')) element.textContent = String(itemCount(readCart()))
}
