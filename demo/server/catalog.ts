// The shop's products. Prices live here, on the server: the browser sends product ids and quantities only.
import { currencyByCode, formatMinorUnits } from '@till/contract'

export interface Product {
  id: string
  name: string
  description: string
  /** An emoji stands in for a product photo. */
  picture: string
  price: { currency: string; value: bigint }
}

export const PRODUCTS: readonly Product[] = [
  {
    id: 'sencha',
    name: 'Sencha, 100 g',
    description: 'Grassy first-flush green tea from Shizuoka.',
    picture: '🍵',
    price: { currency: 'EUR', value: 1250n },
  },
  {
    id: 'teapot',
    name: 'Kyusu teapot',
    description: 'Tokoname clay side-handle pot, 300 ml.',
    picture: '🫖',
    price: { currency: 'EUR', value: 3900n },
  },
  { id: 'whisk', name: 'Bamboo whisk', description: '100 prongs, for matcha.', picture: '🎋', price: { currency: 'EUR', value: 990n } },
  { id: 'cups', name: 'Two cups', description: 'Hand-thrown, ash glaze.', picture: '🍶', price: { currency: 'EUR', value: 2400n } },
]

export const productById = (id: string): Product | undefined => PRODUCTS.find((product) => product.id === id)

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
