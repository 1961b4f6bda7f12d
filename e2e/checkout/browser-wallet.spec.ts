// The buyer pays from their own browser wallet on a real (local) chain: the page discovers the wallet
// (EIP-6963), connects it, has it sign the transfer Till built, and Till verifies it on chain.
import { chainClients, devAccount } from '@till/devchain'
import { erc20Abi } from 'viem'
import { expect, test } from '../fixtures.ts'
import { freezePageClock, outcomeHeading } from './buyer.ts'
import { injectWallet } from './injected-wallet.ts'

const BUYER = devAccount(1).address

test.beforeEach(async ({ page }) => {
  await page.clock.install()
})

test('a buyer pays from their browser wallet, declines once, and lands on the shop with the order paid', async ({
  page,
  chainTill: till,
  merchant,
}) => {
  const chain = chainClients(till.chain.anvil.url)
  const merchantAddress = till.chain.merchantAccount.split(':')[2] as `0x${string}`
  const balance = () =>
    chain.public.readContract({ address: till.chain.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [merchantAddress] })
  const before = await balance()
  const wallet = await injectWallet(page, { rpcUrl: till.chain.anvil.url, account: BUYER, chainId: 31337, name: 'Fox Test Wallet' })
  const payment = await till.createPayment({
    amount: { unit: 'iso4217/EUR', value: '1250' },
    checkout: { successUrl: merchant.url('/orders/9/paid'), errorUrl: merchant.url('/orders/9/failed') },
  })

  await page.goto(payment.gatewayUrl)
  await page.getByRole('button', { name: /Fox Test Wallet/ }).click()
  await expect(page.getByRole('heading', { name: 'Choose how to pay' })).toBeVisible()
  // 12.50 EUR at 1.0842 USDC per EUR, fixed for this payment.
  await expect(page.getByText('Rate: 1 EUR = 1.0842 USDC')).toBeVisible()
  await expect(page.getByRole('radio', { name: /13\.5525 USDC on Local chain/ })).toBeChecked()

  wallet.rejectNextSignature()
  await page.getByRole('button', { name: /^Sign and pay 13\.5525 USDC/ }).click()
  await expect(page.getByText(/You declined in your wallet/)).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Choose how to pay' })).toBeVisible()
  expect(await till.status(payment.paymentId)).toEqual({ status: 'pending', isFinal: false })

  await page.getByRole('button', { name: /^Sign and pay 13\.5525 USDC/ }).click()
  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  expect(await till.status(payment.paymentId)).toEqual({ status: 'succeeded', isFinal: true })
  expect((await balance()) - before).toBe(13_552_500n)
  expect(wallet.requests).toContain('eth_sendTransaction')

  await freezePageClock(page)
  await page.clock.runFor(3_000)
  await expect(page).toHaveURL(merchant.url(`/orders/9/paid?payment_id=${payment.paymentId}`))
})

test('a buyer whose browser has no wallet is told how to get one', async ({ page, chainTill: till }) => {
  const payment = await till.createPayment()
  await page.goto(payment.gatewayUrl)
  await expect(page.getByRole('heading', { name: 'Connect a wallet' })).toBeVisible()
  await expect(page.getByText(/^No browser wallet found\. To pay, install a wallet extension/)).toBeVisible()
  await expect(page.getByRole('button', { name: /Sign and pay/ })).toHaveCount(0)
})

test('a buyer’s tab closes right after the wallet sent the transfer, and the payment succeeds all the same', async ({
  page,
  chainTill: till,
}) => {
  await injectWallet(page, { rpcUrl: till.chain.anvil.url, account: BUYER, chainId: 31337, name: 'Fox Test Wallet' })
  const payment = await till.createPayment({ amount: { unit: 'iso4217/EUR', value: '1250' } })
  await page.goto(payment.gatewayUrl)
  await page.getByRole('button', { name: /Fox Test Wallet/ }).click()
  // The wallet sends the transfer; the tab is gone before the page can tell Till its hash.
  let closed: Promise<void> | undefined
  await page.route('**/confirm', (route) => {
    closed = route.abort().then(() => page.close())
  })
  // Its exact amount is its own: 13.5525 USDC and a few millionths, unique among the merchant's open payments.
  await page.getByRole('button', { name: /^Sign and pay 13\.5525\d* USDC/ }).click()
  await expect.poll(() => closed !== undefined).toBe(true)
  await closed
  // Till finds the transfer on chain itself (its chain watcher), and follows it to its confirmation.
  await expect.poll(() => till.status(payment.paymentId)).toEqual({ status: 'succeeded', isFinal: true })
})
