// The shop's products. Prices live here, on the server: the browser sends product ids and quantities only.
import { currencyByCode, formatMinorUnits } from '@till/contract'

export interface Product {
  id: string
  name: string
  description: string
  /** A drawing of the product, served by the shop (demo/shop/public/products), and what it shows in words. */
  image: { src: string; alt: string }
  price: { currency: string; value: bigint }
}

export const PRODUCTS: readonly Product[] = [
  {
    id: 'sencha',
    name: 'Sencha, 100 g',
    description: 'Grassy first-flush green tea from Shizuoka.',
    image: { src: '/products/sencha.svg', alt: 'A green tea tin with loose tea leaves beside it' },
    price: { currency: 'EUR', value: 1250n },
  },
  {
    id: 'teapot',
    name: 'Kyusu teapot',
    description: 'Tokoname clay side-handle pot, 300 ml.',
    image: { src: '/products/teapot.svg', alt: 'A round brown clay teapot with a spout and a straight side handle' },
    price: { currency: 'EUR', value: 3900n },
  },
  {
    id: 'whisk',
    name: 'Bamboo whisk',
    description: '100 prongs, for matcha.',
    image: { src: '/products/whisk.svg', alt: 'A bamboo matcha whisk, its fine prongs curling inwards' },
    price: { currency: 'EUR', value: 990n },
  },
  {
    id: 'cups',
    name: 'Two cups',
    description: 'Hand-thrown, ash glaze.',
    image: { src: '/products/cups.svg', alt: 'Two tall handleless cups, grey-green and dark green, glaze running from the rims' },
    price: { currency: 'EUR', value: 2400n },
  },
]

export const productById = (id: string): Product | undefined => PRODUCTS.find((product) => product.id === id)

export class UnknownProductError extends Error {}

export interface Amount {
  currency: string
  value: bigint
}

export interface PricedLine {
  productId: string
  name: string
  quantity: number
  unitPrice: Amount
  /** unitPrice × quantity, in minor units. */
  lineTotal: Amount
}

/** The shop's currency: every product is priced in it, so lines add up without conversion. */
export const SHOP_CURRENCY = 'EUR'

/** Prices product ids and quantities from the catalogue: each line's total and the sum, in integer minor units. */
export function priceItems(items: readonly { productId: string; quantity: number }[]): { lines: PricedLine[]; total: Amount } {
  const lines = items.map(({ productId, quantity }): PricedLine => {
    const product = productById(productId)
    if (product === undefined) throw new UnknownProductError(`no product ${productId}`)
    if (product.price.currency !== SHOP_CURRENCY) throw new Error(`${productId} is not priced in ${SHOP_CURRENCY}`)
    return {
      productId,
      name: product.name,
      quantity,
      unitPrice: product.price,
      lineTotal: { currency: SHOP_CURRENCY, value: product.price.value * BigInt(quantity) },
    }
  })
  const value = lines.reduce((sum, line) => sum + line.lineTotal.value, 0n)
  return { lines, total: { currency: SHOP_CURRENCY, value } }
}

/** Money as the shop's pages show it: integer minor units on the wire, and a display string made here. */
export interface MoneyView {
  currency: string
  value: string
  formatted: string
}

// One formatter per currency, made on first use: every order listing formats each line's price.
const formatters = new Map<string, { exponent: number; format: Intl.NumberFormat }>()

function formatterOf(currency: string) {
  let formatter = formatters.get(currency)
  if (formatter === undefined) {
    const exponent = currencyByCode(currency)?.exponent ?? 2
    const format = new Intl.NumberFormat('en-IE', {
      style: 'currency',
      currency,
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    })
    formatter = { exponent, format }
    formatters.set(currency, formatter)
  }
  return formatter
}

export function moneyView(amount: { currency: string; value: bigint }): MoneyView {
  const { exponent, format } = formatterOf(amount.currency)
  // A decimal string, not a number: Intl formats it exactly.
  return {
    currency: amount.currency,
    value: amount.value.toString(),
    formatted: format.format(formatMinorUnits(amount.value, exponent) as `${number}`),
  }
}
