// Spec 4.2: when either return URL is missing or not a valid HTTPS URL, the page shows generic terminal
// views, with no countdown, and never navigates away.
import { expect, test } from '../fixtures.ts'
import { freezePageClock, outcomeHeading, payWith } from './buyer.ts'

const cases: { name: string; checkout: (origin: string) => { successUrl?: string; errorUrl?: string } | undefined }[] = [
  {
    name: 'an http:// successUrl',
    checkout: (origin) => ({ successUrl: `${origin.replace('https:', 'http:')}/paid`, errorUrl: `${origin}/failed` }),
  },
  { name: 'a malformed errorUrl', checkout: (origin) => ({ successUrl: `${origin}/paid`, errorUrl: 'https://exa mple.com/failed' }) },
  { name: 'errorUrl missing', checkout: (origin) => ({ successUrl: `${origin}/paid` }) },
  { name: 'both URLs missing', checkout: () => undefined },
  {
    name: 'an HTTPS URL with credentials',
    checkout: (origin) => ({ successUrl: `${origin.replace('https://', 'https://shop:secret@')}/paid`, errorUrl: `${origin}/failed` }),
  },
]

for (const { name, checkout } of cases) {
  test(`with ${name}, a successful payment shows the generic view and stays put`, async ({ page, till, merchant }) => {
    const urls = checkout(merchant.origin)
    const payment = await till.createPayment(urls ? { checkout: urls } : {})
    await page.clock.install()
    await page.goto(payment.gatewayUrl)
    await freezePageClock(page)
    await payWith(page, 'pays')

    await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
    await expect(page.getByText('You can close this page now.')).toBeVisible()
    await expect(page.getByRole('progressbar')).toHaveCount(0)
    await expect(page.getByRole('link', { name: /Return to/ })).toHaveCount(0)

    await page.clock.runFor(30_000)
    await expect(page).toHaveURL(payment.gatewayUrl)
    await expect(outcomeHeading(page, 'Payment successful')).toBeVisible()
    expect(merchant.requests).toEqual([])
  })
}

test('with redirect disabled, a failed payment shows the generic failure view and stays put', async ({ page, till, merchant }) => {
  const payment = await till.createPayment({ checkout: { successUrl: `${merchant.origin}/paid`, errorUrl: 'http://127.0.0.1/failed' } })
  await page.clock.install()
  await page.goto(payment.gatewayUrl)
  await freezePageClock(page)
  await payWith(page, 'declines')
  await expect(outcomeHeading(page, 'Payment failed')).toBeVisible()
  await page.clock.runFor(30_000)
  await expect(page).toHaveURL(payment.gatewayUrl)
  expect(merchant.requests).toEqual([])
})
