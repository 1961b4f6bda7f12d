// `npm start -- --chain local` (issue 22, point 5): on a local chain the checkout page speaks of a local test
// chain, never of the sandbox or its test wallets, and says what the Local dev wallet does.
import { expect, test } from './fixtures.ts'
import { goToCheckout, placeOrder } from './shopper.ts'

test('the checkout page on a local chain says "local test chain", and no word of a sandbox or test wallets', async ({
  page,
  localChainShop: shop,
}) => {
  await placeOrder(page, shop)
  await goToCheckout(page, shop)
  const shown = page.locator('main')

  await expect(shown.locator('.badge')).toHaveText('Local test chain')
  await expect(page.getByRole('button', { name: /Local dev wallet/ })).toContainText('Signs for you with a funded test account.')
  await expect(page.getByRole('button', { name: /Expire now/ })).toHaveText('Expire now (test mode)')
  await expect(shown).not.toContainText(/sandbox|test wallet|approve/i)

  await page.getByRole('button', { name: /Local dev wallet/ }).click()
  await expect(page.getByRole('heading', { name: 'Choose how to pay' })).toBeVisible()
  // The demo's rate, worked out from the amounts: €12.50 for 13.5525 USDC.
  await expect(page.getByText('Rate: 1 EUR = 1.0842 USDC', { exact: true })).toBeVisible()
  await expect(shown).not.toContainText(/sandbox|test wallet/i)
})

test('the shop on a local chain says so under its header, on every page, and no word of the sandbox', async ({
  page,
  localChainShop: shop,
}) => {
  for (const path of ['/', '/cart.html', '/orders.html']) {
    await page.goto(shop.url(path))
    await expect(page.getByRole('banner')).toContainText('A demo shop on a local test chain: tokens minted for the demo, no real money.')
    await expect(page.locator('body')).not.toContainText(/sandbox|test wallet/i)
  }
})
