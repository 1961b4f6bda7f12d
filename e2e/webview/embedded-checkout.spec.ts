// An app embeds Till's checkout in its WebView (spec 4.8). Playwright is the app: it injects the bridge,
// applies @till/webview's navigation policy, hands wallet links to the "OS", and verifies every outcome
// with its merchant backend before the order counts as paid.
import { parseSandboxWalletLink } from '@till/contract'
import { decideNavigation } from '@till/webview'
import { freezePageClock, outcomeHeading, payWith } from '../checkout/buyer.ts'
import { expect, test } from './fixtures.ts'
import { type BridgeKind, openInNativeHost } from './native-host.ts'

const RETURN_URL = 'tillshop://checkout/done'

for (const bridge of ['NativeWebView', 'webkit'] as const satisfies readonly BridgeKind[]) {
  test(`with the bridge at ${bridge === 'webkit' ? 'webkit.messageHandlers only' : 'window.NativeWebView'}, a test wallet pays, one PAY_SUCCESS reaches the app, and the order is paid once`, async ({
    page,
    webviewTill: till,
    merchant,
  }) => {
    await page.clock.install()
    const order = till.order()
    const payment = await till.createPayment({ checkout: { successUrl: merchant.url('/paid'), errorUrl: merchant.url('/failed') } })
    const host = await openInNativeHost(page, { gatewayUrl: payment.gatewayUrl, returnUrl: RETURN_URL, bridge })
    await freezePageClock(page)
    await payWith(page, 'pays')
    await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()

    await expect.poll(() => host.messages).toEqual([{ kind: 'success', message: 'Payment successful' }])
    // The message only makes the app ask its backend; the backend reads the status from Till.
    expect(await order.verify(payment.paymentId)).toBe('paid')
    expect(await order.verify(payment.paymentId)).toBe('paid')
    expect(order.fulfilments()).toBe(1)

    // The redirect rules of 4.7 stay: the https return page loads inside the WebView.
    await page.clock.runFor(3_000)
    await expect(page).toHaveURL(merchant.url(`/paid?payment_id=${payment.paymentId}`))
    expect(host.messages).toHaveLength(1)
  })
}

test('a declined payment sends one PAY_FAILURE with the reason', async ({ page, webviewTill: till }) => {
  const payment = await till.createPayment()
  const host = await openInNativeHost(page, { gatewayUrl: payment.gatewayUrl, returnUrl: RETURN_URL, bridge: 'NativeWebView' })
  await payWith(page, 'declines')
  await expect(outcomeHeading(page, 'Payment failed')).toBeVisible()
  await expect.poll(() => host.messages).toEqual([{ kind: 'failure', error: 'Payment failed' }])
})

test('an expired payment sends one PAY_FAILURE with the reason', async ({ page, webviewTill: till }) => {
  const payment = await till.createPayment()
  const host = await openInNativeHost(page, { gatewayUrl: payment.gatewayUrl, returnUrl: RETURN_URL, bridge: 'webkit' })
  await till.reachDeadline(payment.paymentId)
  await expect(outcomeHeading(page, 'Payment expired')).toBeVisible()
  await expect.poll(() => host.messages).toEqual([{ kind: 'failure', error: 'Payment expired' }])
})

test('the sandbox mobile wallet’s link goes to the OS, not the WebView; the wallet pays and PAY_SUCCESS follows', async ({
  page,
  webviewTill: till,
}) => {
  const payment = await till.createPayment()
  const host = await openInNativeHost(page, { gatewayUrl: payment.gatewayUrl, returnUrl: RETURN_URL, bridge: 'NativeWebView' })
  const pageUrl = page.url()
  await page.getByRole('button', { name: /Mobile wallet \(sandbox\)/ }).click()
  await expect.poll(() => host.openedExternally).toHaveLength(1)
  await expect(page).toHaveURL(pageUrl)

  // The "wallet app" reads the link it was given: the payment, and the app to return to.
  const link = parseSandboxWalletLink(host.openedExternally[0] ?? '')
  expect(link).toEqual({ checkoutUrl: till.checkoutUrl, paymentId: payment.paymentId, returnUrl: RETURN_URL })
  expect(new URL(host.openedExternally[0] ?? '').searchParams.get('preferUniversalLinks')).toBe('1')
  await till.simulate(payment.paymentId, 'succeeded')

  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  await expect.poll(() => host.messages).toEqual([{ kind: 'success', message: 'Payment successful' }])
})

test('the app blocks tel:, sms:, intent: and javascript: navigations and lets https through', async ({
  page,
  webviewTill: till,
  merchant,
}) => {
  const payment = await till.createPayment()
  await openInNativeHost(page, { gatewayUrl: payment.gatewayUrl, returnUrl: RETURN_URL, bridge: 'NativeWebView' })
  const pageUrl = page.url()
  for (const url of ['tel:+15550100', 'sms:+15550100', 'intent://scan/#Intent;scheme=zxing;end', 'javascript:alert(1)']) {
    expect(decideNavigation(url).action, url).toBe('block')
    // Chromium hands these schemes to no one here; the WebView stays on the checkout page either way.
    await page.evaluate((target) => {
      const a = Object.assign(document.createElement('a'), { href: target })
      document.body.append(a)
      a.click()
      a.remove()
    }, url)
    await expect(page).toHaveURL(pageUrl)
  }
  expect(decideNavigation(merchant.url('/anything')).action).toBe('allow')
  await page.goto(merchant.url('/help'))
  await expect(page.getByRole('heading', { name: 'Merchant return page' })).toBeVisible()
})

test('a PAY_SUCCESS forged from the console fulfils nothing: the server says pending', async ({ page, webviewTill: till }) => {
  const order = till.order()
  const payment = await till.createPayment()
  const host = await openInNativeHost(page, { gatewayUrl: payment.gatewayUrl, returnUrl: RETURN_URL, bridge: 'NativeWebView' })
  await page.evaluate(() => {
    ;(window as unknown as { NativeWebView: { postMessage(data: string): void } }).NativeWebView.postMessage(
      JSON.stringify({ type: 'PAY_SUCCESS', success: true, message: 'Paid, honestly' }),
    )
  })
  await expect.poll(() => host.messages).toEqual([{ kind: 'success', message: 'Paid, honestly' }])
  expect(await order.verify(payment.paymentId)).toBe('pending')
  expect(order.fulfilments()).toBe(0)
})

test('an invalid returnUrl shows the app developer what to fix', async ({ page, webviewTill: till }) => {
  const payment = await till.createPayment()
  const url = new URL(payment.gatewayUrl)
  url.searchParams.set('returnUrl', 'javascript:alert(1)')
  url.searchParams.set('preferUniversalLinks', '1')
  await page.goto(url.href)
  await expect(page.getByRole('heading', { name: 'This checkout cannot be embedded as given' })).toBeVisible()
  await expect(page.getByRole('listitem')).toContainText(
    'returnUrl must be the app’s own deep link or an https link, not a javascript: URL',
  )
})
