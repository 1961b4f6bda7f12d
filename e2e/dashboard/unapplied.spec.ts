// A buyer sends the shop tokens that pay no payment; shop staff find the transfer on the dashboard's
// Unapplied transfers page, with why and from whom, and make its refund to the account that sent it.
import { chainClients, devAccount } from '@till/devchain'
import { erc20Abi, getAddress } from 'viem'
import { expectNoAxeViolations } from '../axe.ts'
import { injectWallet } from '../checkout/injected-wallet.ts'
import { expect, test } from '../fixtures.ts'
import { shoot } from './screenshots.ts'

const BUYER = devAccount(1)

test('staff refund a transfer that paid nothing to the account that sent it', async ({ page, context, chainTill: till }) => {
  await page.clock.install()
  await page.goto(till.dashboardInviteUrl ?? '')
  await page.getByLabel('Choose a password').fill('plum-orbit-violet-kettle')
  await page.getByRole('button', { name: 'Create my account' }).click()
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()

  // A buyer opens a checkout page: Till quotes its options, and watches the shop's account for payments.
  const checkout = await context.newPage()
  await checkout.clock.install()
  await injectWallet(checkout, { rpcUrl: till.chain.anvil.url, account: BUYER.address, chainId: 31337, name: 'Fox Test Wallet' })
  const payment = await till.createPayment({ amount: { unit: 'iso4217/EUR', value: '1250' } })
  await checkout.goto(payment.gatewayUrl)
  await checkout.getByRole('button', { name: /Fox Test Wallet/ }).click()
  await expect(checkout.getByRole('heading', { name: 'Choose how to pay' })).toBeVisible()

  // 1.234567 USDC to the shop's account, sent by hand: it pays nothing.
  const chain = chainClients(till.chain.anvil.url)
  const merchant = till.chain.merchantAccount.split(':')[2] as `0x${string}`
  const hash = await chain.wallet.writeContract({
    address: till.chain.usdc,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [merchant, 1_234_567n],
    account: BUYER,
  })
  await chain.public.waitForTransactionReceipt({ hash })

  await page.getByRole('link', { name: 'Unapplied transfers' }).click()
  await expect(page.getByRole('heading', { name: 'Unapplied transfers', level: 1 })).toBeVisible()
  const row = page.getByRole('row').filter({ hasText: '1.234567 USDC' })
  // Till's chain watcher finds it on its own; the page shows it once loaded after that.
  await expect(async () => {
    await page.reload()
    await expect(row).toBeVisible({ timeout: 1_000 })
  }).toPass()
  const from = `eip155:31337:${getAddress(BUYER.address)}`
  await expect(row).toContainText(from)
  await expect(row).toContainText(/No payment matched|Not the amount asked/)
  await expectNoAxeViolations(page, 'the Unapplied transfers page')

  await row.getByRole('button', { name: `Refund the transfer from ${from}` }).click()
  const form = page.getByRole('form', { name: 'Refund 1.234567 USDC' })
  await expect(form.getByRole('heading', { name: 'Refund 1.234567 USDC' })).toBeFocused()
  await expect(form.getByLabel(/^Destination/)).toHaveValue(from)
  await form.getByRole('button', { name: 'Refund', exact: true }).click()
  await expect(form.getByRole('status')).toContainText('Refund made.')
  await expect(form.getByRole('link', { name: 'the pay link' })).toHaveAttribute('href', /\/refunds\/rfd_[0-9a-z]+\/pay/)
  await shoot(page, 'dashboard-unapplied')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectNoAxeViolations(page, 'the Unapplied transfers page with a refund, dark')
})
