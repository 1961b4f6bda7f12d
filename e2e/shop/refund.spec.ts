// A paid order is refunded in full on a local chain: staff press "Refund this order" on the Orders page; the
// buyer, with their browser wallet, says where the refund goes at the claim link; the shop's own wallet
// sends it at the pay link; Till follows the transfer to its confirmation, tells the shop by webhook
// (refund.succeeded, which the shop checks by reading the refund), and the buyer has their tokens back.
import { AxeBuilder } from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { getAddress } from 'viem'
import { outcomeHeading } from '../checkout/buyer.ts'
import { injectWallet } from '../checkout/injected-wallet.ts'
import { expect, test } from './fixtures.ts'
import { goToCheckout, orderCard, placeOrder, localUsdcBalance } from './shopper.ts'

const CHAIN_ID = 31337

/** axe on a page that runs on its own clock (e2e/axe.ts is for pages under a paused one). */
async function expectNoAxeViolations(page: Page, screen: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze()
  expect(results.passes.length, screen).toBeGreaterThan(10)
  expect(
    results.violations.map(
      (violation) => `${screen}: ${violation.id} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    ),
  ).toEqual([])
}

test('staff refund a paid order; the buyer claims it with their wallet, the shop’s wallet pays it, and the tokens come back', async ({
  page,
  context,
  localChainShop: shop,
}) => {
  const balanceOf = localUsdcBalance(shop.chain)
  const buyer = getAddress(shop.chain.devWallet)
  const merchant = getAddress(shop.chain.merchantAccount.split(':')[2] ?? '')

  // The shopper pays with the checkout page's Local dev wallet: €12.50 at 1.0842 USDC per EUR, 13.5525 USDC,
  // raised by a few millionths when another payment to the shop holds that exact amount (issue 23).
  const buyerBeforePaying = await balanceOf(buyer)
  const orderId = await placeOrder(page, shop)
  await goToCheckout(page, shop)
  await page.getByRole('button', { name: /Local dev wallet/ }).click()
  await page.getByRole('button', { name: /^Sign and pay 13\.5525\d* USDC/ }).click()
  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  const paid = buyerBeforePaying - (await balanceOf(buyer))
  expect(paid - 13_552_500n).toBeLessThan(10_000n)
  // The shop learns it by Till's webhook, whether or not the buyer comes back.
  await expect.poll(async () => (await shop.order(orderId)).paid).toBe(true)

  // Staff refund it from the Orders page.
  const staff = await context.newPage()
  await staff.goto(shop.url(`/orders.html?order=${orderId}`))
  const card = orderCard(staff, orderId)
  await expect(card).toHaveAccessibleDescription('Paid')
  await card.getByRole('button', { name: 'Refund this order' }).click()
  const refunds = card.getByRole('table', { name: 'Refunds' })
  const row = refunds.getByRole('row', { name: /rfd_/ })
  await expect(row).toContainText('Waiting for the buyer’s address')
  await expect(row).toContainText('€12.50')
  await expect(row).toContainText(/13\.5525\d* USDC/)
  await expect(card.getByRole('button', { name: 'Refund this order' })).toHaveCount(0)
  const claimLink = row.getByRole('link', { name: 'Claim link (send it to the buyer)' })
  const payLink = row.getByRole('link', { name: 'Pay link (for your wallet)' })
  await expect(claimLink).toBeVisible()
  await expect(payLink).toBeVisible()
  await expectNoAxeViolations(staff, 'the Orders page with a refund waiting for the buyer')
  const claimUrl = await claimLink.getAttribute('href')
  const payUrl = await payLink.getAttribute('href')
  if (!claimUrl || !payUrl) throw new Error('the refund has no claim or pay link')

  // The buyer opens the claim link with the wallet that paid, and sends the refund back to it.
  const buyerBefore = await balanceOf(buyer)
  const claim = await context.newPage()
  const buyerWallet = await injectWallet(claim, { rpcUrl: shop.chain.rpcUrl, account: buyer, chainId: CHAIN_ID, name: 'Buyer Test Wallet' })
  await claim.goto(claimUrl)
  await expect(claim.getByRole('heading', { name: 'Where should your refund go?' })).toBeVisible()
  await claim.getByRole('button', { name: `Use my ${buyerWallet.name} account` }).click()
  await expect(claim.getByRole('textbox', { name: /^Or another account on / })).toHaveValue(`eip155:${CHAIN_ID}:${buyer}`)
  await claim.getByRole('checkbox', { name: /^I control this account, and it can receive / }).check()
  await claim.getByRole('button', { name: 'Send my refund here' }).click()
  await expect(claim.getByRole('heading', { name: 'Thank you' })).toBeVisible()
  await expect(claim.getByText(buyer)).toBeVisible()
  await claim.close()
  // The shop reads its open refunds again when its Orders page asks: the buyer's claim shows there.
  await staff.reload()
  await expect(row).toContainText('Ready to send')
  await expect(row.getByRole('link', { name: 'Claim link (send it to the buyer)' })).toHaveCount(0)

  // The shop's own wallet (its receiving account) sends it at the pay link.
  const pay = await context.newPage()
  const shopWallet = await injectWallet(pay, { rpcUrl: shop.chain.rpcUrl, account: merchant, chainId: CHAIN_ID, name: 'Shop Test Wallet' })
  await pay.goto(payUrl)
  await expect(pay.getByRole('heading', { name: 'Send this refund' })).toBeVisible()
  await pay.getByRole('button', { name: `Send with ${shopWallet.name}` }).click()
  await expect(pay.getByRole('status').filter({ hasText: 'Refund confirmed on the network.' })).toBeVisible({ timeout: 15_000 })
  expect(shopWallet.requests).toContain('eth_sendTransaction')
  // All of it: the very tokens the buyer paid.
  expect((await balanceOf(buyer)) - buyerBefore).toBe(paid)
  await pay.close()

  // Till told the shop by its webhook: the shop's handler took refund.succeeded (a 2xx answer), and then
  // read the refund from Till, as it reads a payment's status.
  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${shop.till.baseUrl}${path}`, {
      headers: { 'api-key': shop.till.apiKey, 'merchant-id': shop.till.merchantId },
    })
    return (await response.json()) as T
  }
  const [endpoint] = (await api<{ data: { id: string }[] }>('/v1/webhook-endpoints')).data
  await expect
    .poll(async () => {
      const { data } = await api<{ data: { status: string; event: { type: string } }[] }>(
        `/v1/webhook-endpoints/${endpoint?.id}/deliveries`,
      )
      return data.filter((delivery) => delivery.event.type === 'refund.succeeded').map((delivery) => delivery.status)
    })
    .toEqual(['delivered'])
  await expect.poll(async () => (await shop.order(orderId)).refunds.map((refund) => refund.status)).toEqual(['succeeded'])
  await staff.reload()
  await expect(row).toContainText('Refunded')
  await expect(row.getByRole('link')).toHaveCount(0)
  await expect(card.getByRole('button', { name: 'Refund this order' })).toHaveCount(0)
  await expectNoAxeViolations(staff, 'the Orders page with the order refunded')
})
