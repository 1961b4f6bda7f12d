// The return page believes only the shop's backend, which believes only Till: a URL cannot mark an order
// paid, and the API key never reaches the browser.
import { expect, test } from './fixtures.ts'
import { endPaymentAndWait, expectOrder, goToCheckout, placeOrder, returnView } from './shopper.ts'

test('a tampered payment_id shows the mismatch and fulfils nothing', async ({ page, shop }) => {
  const paid = await shop.placeOrder([{ productId: 'teapot', quantity: 1 }])
  const paidPayment = await shop.startPayment(paid.id)
  await shop.simulate(paidPayment.paymentId, 'succeeded')
  const open = await shop.placeOrder([{ productId: 'whisk', quantity: 1 }])
  await shop.startPayment(open.id)

  for (const query of [
    `order=${open.id}&payment_id=${paidPayment.paymentId}`,
    `order=${open.id}&payment_id=pay_forged&status=succeeded`,
    `order=${open.id}&status=succeeded`,
  ]) {
    await page.goto(shop.url(`/return.html?${query}`))
    await expect(returnView(page, 'This payment does not belong to this order, so nothing was changed.')).toBeVisible()
  }
  await expectOrder(page, shop, open.id, 'Awaiting payment', 'Not yet')
  // The paid order is fulfilled by Till's webhook, once, with its own payment: never through the open
  // order's tampered return URLs.
  await expect.poll(async () => (await shop.order(paid.id)).fulfilments.map((f) => f.paymentId)).toEqual([paidPayment.paymentId])
})

test('the API key appears in no byte the browser receives or sends, through a whole payment', async ({ page, shop }) => {
  const seen: string[] = []
  page.on('request', (request) => {
    seen.push(`${request.url()}\n${JSON.stringify(request.headers())}\n${request.postData() ?? ''}`)
  })
  page.on('response', async (response) => {
    const headers = JSON.stringify(await response.allHeaders())
    const body = await response.body().catch(() => Buffer.alloc(0))
    seen.push(`${response.url()}\n${headers}\n${body.toString('latin1')}`)
  })
  await page.clock.install()

  const orderId = await placeOrder(page, shop)
  await goToCheckout(page, shop)
  await endPaymentAndWait(page, 'pays')
  await expect(returnView(page, 'Thank you! Your order is paid and on its way.')).toBeVisible()
  await expectOrder(page, shop, orderId, 'Paid', 'Once')

  expect(seen.length).toBeGreaterThan(15)
  expect(seen.some((text) => text.includes(orderId))).toBe(true)
  for (const text of seen) expect(text).not.toContain(shop.apiKey)
})
