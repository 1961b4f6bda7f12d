// `npm start -- --chain local`: a shopper pays in the demo shop with the checkout page's Local dev wallet,
// and real (local) USDC moves from the dev wallet to the shop on the local chain.
import { getAddress } from 'viem'
import { freezePageClock, outcomeHeading } from '../checkout/buyer.ts'
import { expect, test } from './fixtures.ts'
import { expectOrder, goToCheckout, placeOrder, returnView, localUsdcBalance } from './shopper.ts'

test.beforeEach(async ({ page }) => {
  await page.clock.install()
})

test('a shopper pays with the Local dev wallet, and the tokens reach the shop on the local chain', async ({
  page,
  localChainShop: shop,
}) => {
  const balanceOf = localUsdcBalance(shop.chain)
  const wallet = getAddress(shop.chain.devWallet)
  const before = await balanceOf(wallet)

  const orderId = await placeOrder(page, shop)
  await goToCheckout(page, shop)
  await page.getByRole('button', { name: /Local dev wallet/ }).click()
  // €12.50 at the demo's 1.0842 USDC per EUR.
  await expect(page.getByRole('radio', { name: /13\.5525 USDC on Local chain/ })).toBeChecked()
  await page.getByRole('button', { name: /^Sign and pay 13\.5525 USDC/ }).click()
  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  expect(before - (await balanceOf(wallet))).toBe(13_552_500n)

  await freezePageClock(page)
  await page.clock.runFor(3_000)
  const { paymentId } = await shop.order(orderId)
  await expect(page).toHaveURL(shop.url(`/return.html?order=${orderId}&payment_id=${paymentId}`))
  await expect(returnView(page, 'Thank you! Your order is paid and on its way.')).toBeVisible()
  await expectOrder(page, shop, orderId, 'Paid', 'Once')
})
