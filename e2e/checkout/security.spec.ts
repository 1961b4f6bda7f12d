// The page's gateway calls are bound to its own payment, and it runs under a strict CSP.
import { expect, test } from '../fixtures.ts'
import { cspViolations, outcomeHeading, payWith } from './buyer.ts'

test('a tampered gateway request for another payment is refused, and that payment is untouched', async ({ page, till }) => {
  const mine = await till.createPayment()
  const theirs = await till.createPayment()
  await page.goto(mine.gatewayUrl)
  await expect(page.getByRole('heading', { name: 'Connect a wallet' })).toBeVisible()

  // What a buyer could type into the devtools console of their own checkout page.
  const answers = await page.evaluate(async (otherId) => {
    const { token } = JSON.parse(document.getElementById('checkout-data')?.textContent ?? '{}') as { token: string }
    const call = (path: string, init: RequestInit = {}) =>
      fetch(`./api/payments/${otherId}${path}`, { ...init, headers: { 'Checkout-Token': token, 'Content-Type': 'application/json' } }).then(
        async (response) => ({ status: response.status, code: ((await response.json()) as { code?: string }).code }),
      )
    return [
      await call('/status'),
      await call('/options'),
      await call('/confirm', {
        method: 'POST',
        body: JSON.stringify({
          walletId: 'sandbox_pays',
          optionId: 'usdc-base',
          account: 'eip155:8453:0x52908400098527886e0f7030069857d2e4169ee7',
        }),
      }),
      await call('/expire', { method: 'POST', body: '{}' }),
    ]
  }, theirs.paymentId)

  expect(answers).toEqual(Array(4).fill({ status: 403, code: 'checkout_token_invalid' }))
  expect(await till.status(theirs.paymentId)).toEqual({ status: 'pending', isFinal: false })
})

test('the page works under its Content-Security-Policy without a single violation', async ({ page, till }) => {
  const violations = await cspViolations(page)
  const payment = await till.createPayment()
  const response = await page.goto(payment.gatewayUrl)
  expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
  expect(response?.headers()['referrer-policy']).toBe('no-referrer')
  await payWith(page, 'pays')
  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  expect(violations).toEqual([])
})

test('inside a native WebView the page posts PAY_SUCCESS or PAY_FAILURE on the bridge', async ({ page, till }) => {
  await page.addInitScript(() => {
    const sent: string[] = []
    Object.assign(window, { NativeWebView: { postMessage: (message: string) => sent.push(message) }, bridgeMessages: sent })
  })
  const succeeded = await till.createPayment()
  await page.goto(`${succeeded.gatewayUrl}?returnUrl=shop%3A%2F%2Fpaid&preferUniversalLinks=1`)
  await payWith(page, 'pays')
  await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
  const messages = () =>
    page.evaluate(() => (window as unknown as { bridgeMessages: string[] }).bridgeMessages.map((raw) => JSON.parse(raw)))
  expect(await messages()).toEqual([{ type: 'PAY_SUCCESS', success: true, message: 'Payment successful' }])

  const failed = await till.createPayment()
  await page.goto(failed.gatewayUrl)
  await payWith(page, 'declines')
  await expect(outcomeHeading(page, 'Payment failed')).toBeVisible()
  expect(await messages()).toEqual([{ type: 'PAY_FAILURE', success: false, error: 'Payment failed' }])
})
