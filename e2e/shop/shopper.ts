// What a shopper does in the demo shop, in the words its pages show.
import type { Page } from '@playwright/test'
import { chainClients } from '@till/devchain'
import { erc20Abi, getAddress } from 'viem'
import { freezePageClock, outcomeHeading, payWith } from '../checkout/buyer.ts'
import { expect, type ReturnMode, type Shop } from './fixtures.ts'

const RETURN_CHOICE: Record<ReturnMode, RegExp> = {
  https: /^HTTPS return URLs/,
  http: /^http:\/\/ return URLs/,
  malformed: /^A malformed successUrl/,
  missing: /^No errorUrl/,
}

/** Puts one Sencha in the cart, places the order with the chosen return URLs, and lands on the order page. */
export async function placeOrder(page: Page, shop: Shop, returnMode: ReturnMode = 'https'): Promise<string> {
  await page.goto(shop.url('/'))
  await page.getByRole('button', { name: 'Add to cart: Sencha, 100 g' }).click()
  await expect(page.getByRole('link', { name: 'Cart (1)' })).toBeVisible()
  await page.getByRole('link', { name: 'Cart (1)' }).click()
  await expect(page.getByRole('row', { name: /Sencha, 100 g/ })).toContainText('€12.50')
  await page.getByRole('radio', { name: RETURN_CHOICE[returnMode] }).check()
  await page.getByRole('button', { name: 'Place order' }).click()
  await expect(page.getByRole('heading', { name: 'Review and pay' })).toBeVisible()
  await expect(page.getByRole('row', { name: 'Total €12.50' })).toBeVisible()
  const orderId = new URL(page.url()).searchParams.get('order')
  if (!orderId) throw new Error(`no order id in ${page.url()}`)
  return orderId
}

/** Presses the pay button and waits for Till's checkout page. */
export async function goToCheckout(page: Page, shop: Shop): Promise<void> {
  await page.getByRole('button', { name: 'Pay €12.50' }).click()
  await expect(page).toHaveURL(new RegExp(`^${escapeRegExp(shop.checkoutUrl)}/pay_`))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('€12.50')
}

const ENDINGS = {
  pays: 'Payment successful',
  declines: 'Payment failed',
  expire: 'Payment expired',
} as const

/**
 * On the checkout page, on a frozen clock: ends the payment with a test wallet (or "Expire now"), sees the
 * end view, and lets the 3-second countdown run out.
 */
export async function endPaymentAndWait(page: Page, how: keyof typeof ENDINGS): Promise<void> {
  await freezePageClock(page)
  if (how === 'expire') await page.getByRole('button', { name: 'Expire now (test mode)' }).click()
  else await payWith(page, how)
  await expect(outcomeHeading(page, ENDINGS[how])).toBeVisible()
  await page.clock.runFor(3_000)
}

export const returnView = (page: Page, text: string | RegExp) => page.locator('pay-return').getByText(text)

/** The order's card on the Orders page, named by its heading. */
export const orderCard = (page: Page, orderId: string) => page.getByRole('article', { name: `Order ${orderId}` })

/** What the Orders page says of the order as a whole (the card's description), from its latest attempt. */
export type OrderState = 'Paid' | 'Payment failed' | 'Payment expired' | 'Payment cancelled' | 'Awaiting payment' | 'Payment processing'

/** The order on the Orders page: its state, and whether it was fulfilled (once, never more). */
export async function expectOrder(page: Page, shop: Shop, orderId: string, state: OrderState, fulfilled: 'Once' | 'Not yet') {
  await page.goto(shop.url(`/orders.html?order=${orderId}`))
  const card = orderCard(page, orderId)
  await expect(card).toHaveAccessibleDescription(state)
  await expect(card.getByText(fulfilled === 'Once' ? /^Fulfilled once, by / : 'Not fulfilled yet.')).toBeVisible()
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** An account's USDC on the demo's local chain, read from the chain itself. */
export function localUsdcBalance(chain: { rpcUrl: string; usdc: string }): (address: `0x${string}`) => Promise<bigint> {
  const clients = chainClients(chain.rpcUrl)
  const usdc = getAddress(chain.usdc)
  return (address) => clients.public.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
}
