// The fixtures themselves: a browser reaches the merchant's return server, and a merchant backend reaches
// the service. The flows through the hosted checkout page have their own specs.
import { expect, test } from './fixtures.ts'

test('a buyer sent back to the shop sees the merchant return page with the address it was sent to', async ({ page, merchant }) => {
  await page.goto(merchant.url('/return?order=1#frag'))

  await expect(page).toHaveTitle('Merchant')
  await expect(page.getByRole('heading', { name: 'Merchant return page' })).toBeVisible()
  // The fragment stays in the browser; the server sees path and query only.
  await expect(page.getByTestId('return-url')).toHaveText('/return?order=1')
  await expect(page).toHaveURL(merchant.url('/return?order=1#frag'))
  expect(merchant.requests).toEqual(['/return?order=1'])
})

test('a merchant backend creates a payment that waits for the buyer on the hosted checkout page', async ({ till, merchant }) => {
  const payment = await till.createPayment({
    checkout: { successUrl: merchant.url('/paid?order=2'), errorUrl: merchant.url('/failed?order=2') },
  })

  expect(payment.gatewayUrl.startsWith(`${till.checkoutUrl}/`), `${payment.gatewayUrl} is on ${till.checkoutUrl}`).toBe(true)
  expect(payment).toMatchObject({ status: 'pending', isFinal: false })
  await expect(till.status(payment.paymentId)).resolves.toEqual({ status: 'pending', isFinal: false })
  // Creating a payment sends nobody anywhere.
  expect(merchant.requests).toEqual([])
})

test('in the sandbox the buyer can be played: the payment succeeds and the merchant sees it final', async ({ till }) => {
  const payment = await till.createPayment({ amount: { unit: 'iso4217/EUR', value: '1999' } })

  await expect(till.simulate(payment.paymentId, 'succeeded')).resolves.toMatchObject({
    paymentId: payment.paymentId,
    status: 'succeeded',
    isTerminal: true,
  })
  await expect(till.status(payment.paymentId)).resolves.toEqual({ status: 'succeeded', isFinal: true })
})
