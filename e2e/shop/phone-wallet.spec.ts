// `npm start -- --chain local`: a shopper pays from the wallet app on their phone. The checkout page shows the
// payment request; the shopper closes the page, the phone wallet sends a plain transfer of the exact amount,
// and Till's chain watcher finds it: the shop's order is paid through its webhook, with no tab left open.
import { chainClients, DEV_WALLET_INDEX, devAccount, parsePaymentRequest, payRequest } from '@till/devchain'
import { erc20Abi, getAddress } from 'viem'
import { expect, test } from './fixtures.ts'
import { expectOrder, goToCheckout, placeOrder } from './shopper.ts'

// Another of anvil's accounts: the shopper's phone wallet, holding USDC of its own.
const PHONE = 4

test('a shopper pays from a phone wallet, closes the page, and the order is paid all the same', async ({
  browser,
  localChainShop: shop,
}) => {
  const chain = chainClients(shop.chain.rpcUrl)
  const funding = await chain.wallet.writeContract({
    address: getAddress(shop.chain.usdc),
    abi: erc20Abi,
    functionName: 'transfer',
    args: [devAccount(PHONE).address, 100_000_000n],
    account: devAccount(DEV_WALLET_INDEX),
  })
  await chain.public.waitForTransactionReceipt({ hash: funding })

  const page = await browser.newPage({ ignoreHTTPSErrors: true })
  const orderId = await placeOrder(page, shop)
  await goToCheckout(page, shop)
  await page.getByRole('button', { name: /^Phone wallet/ }).click()
  await expect(page.getByRole('radio', { name: /13\.5525\d* USDC on Local chain/ })).toBeChecked()
  await page.getByRole('button', { name: 'Pay from a phone wallet' }).click()
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible()
  const request = await page.getByRole('link', { name: 'Open in a wallet app' }).getAttribute('href')
  expect(request).toMatch(/^ethereum:0x[0-9a-fA-F]{40}@31337\/transfer\?address=0x[0-9a-fA-F]{40}&uint256=1355250\d$/)
  await page.close()

  // The phone wallet scans the code and sends exactly what it asks: no reference, nothing else.
  const paid = await payRequest(parsePaymentRequest(request ?? ''), { rpcUrl: shop.chain.rpcUrl, from: PHONE })
  expect(paid.from).toBe(devAccount(PHONE).address)

  // The shop learns it from Till's webhook, with no page of the shopper's open.
  await expect.poll(async () => (await shop.order(orderId)).paid).toBe(true)
  // Its Orders page shows the order paid, and fulfilled once.
  const orders = await browser.newPage({ ignoreHTTPSErrors: true })
  await expectOrder(orders, shop, orderId, 'Paid', 'Once')
  await orders.close()
})
