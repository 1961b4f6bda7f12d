// The shop's own pages as a shopper meets them: product pictures that load everywhere, the logo and favicon,
// a cart that adds up line by line, an order review that shows what each line costs, and pages axe finds
// nothing wrong with, in light and dark, and at 390 px wide.
import type { Page } from '@playwright/test'
import { expectNoAxeViolations } from '../axe.ts'
import { expect, test, type Shop } from './fixtures.ts'

const PRODUCTS = ['Sencha, 100 g', 'Kyusu teapot', 'Bamboo whisk', 'Two cups']

const addToCart = (page: Page, name: string) => page.getByRole('button', { name: `Add to cart: ${name}` }).click()
const cartRow = (page: Page, name: string) => page.getByRole('row', { name: new RegExp(`^${name}`) })
const amountOf = (page: Page, name: string) => cartRow(page, name).getByRole('cell').last()
const totalRow = (page: Page) => page.getByRole('row', { name: /^Total/ })

/** The order review page of an order placed through the shop's API, once it has drawn the order. */
async function reviewOrder(page: Page, shop: Shop, items: { productId: string; quantity: number }[]): Promise<string> {
  const order = await shop.placeOrder(items)
  await page.goto(shop.url(`/order.html?order=${order.id}`))
  await expect(totalRow(page)).toBeVisible()
  return order.id
}

test('every product shows a picture that loads, with words for those who cannot see it', async ({ page, shop }) => {
  await page.goto(shop.url('/'))
  for (const name of PRODUCTS) {
    const picture = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name }) })
      .getByRole('img')
    await expect(picture).toHaveAttribute('alt', /\w+ \w+ \w+/)
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0)
  }
  // Drawings, not emoji: without an emoji font those were empty boxes.
  await expect(page.getByRole('main')).not.toContainText(/\p{Extended_Pictographic}/u)
})

test('each "Add to cart" button is named by what it shows first, then by its product (a voice command finds it)', async ({
  page,
  shop,
}) => {
  await page.goto(shop.url('/'))
  for (const name of PRODUCTS) {
    const button = page.getByRole('button', { name: `Add to cart: ${name}`, exact: true })
    await expect(button).toHaveText('Add to cart')
  }
})

test('the header shows the shop’s logo and every page has a favicon', async ({ page, shop }) => {
  for (const path of ['/', '/cart.html', '/order.html', '/orders.html', '/return.html']) {
    await page.goto(shop.url(path))
    const logo = page.getByRole('link', { name: 'Till Tea' }).locator('img')
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0)
    const icon = await page.locator('link[rel="icon"]').getAttribute('href')
    expect(icon, path).toMatch(/^\/brand\/.+\.svg$/)
    const response = await page.request.get(shop.url(icon ?? ''))
    expect(response.headers()['content-type']).toContain('image/svg+xml')
  }
})

test('“Add to cart” says so in a live region, each time', async ({ page, shop }) => {
  await page.goto(shop.url('/'))
  const status = page.getByRole('status')
  await expect(status).toBeEmpty()
  await addToCart(page, 'Sencha, 100 g')
  await expect(status).toHaveText('Added Sencha, 100 g to your cart. It holds 1 item.')
  await addToCart(page, 'Sencha, 100 g')
  await expect(status).toHaveText('Added Sencha, 100 g to your cart. It holds 2 items.')
  await addToCart(page, 'Bamboo whisk')
  await expect(status).toHaveText('Added Bamboo whisk to your cart. It holds 3 items.')
  await expect(page.getByRole('link', { name: 'Cart (3)' })).toBeVisible()
})

test('the cart adds up each line and the whole, as quantities change and lines go', async ({ page, shop }) => {
  await page.goto(shop.url('/'))
  await addToCart(page, 'Sencha, 100 g')
  await addToCart(page, 'Sencha, 100 g')
  await addToCart(page, 'Kyusu teapot')
  await addToCart(page, 'Two cups')
  await page.getByRole('link', { name: 'Cart (4)' }).click()

  await expect(cartRow(page, 'Sencha, 100 g')).toContainText('€12.50 each')
  await expect(amountOf(page, 'Sencha, 100 g')).toHaveText('€25.00')
  await expect(amountOf(page, 'Kyusu teapot')).toHaveText('€39.00')
  await expect(amountOf(page, 'Two cups')).toHaveText('€24.00')
  await expect(totalRow(page)).toHaveText(/Total\s*€88\.00/)

  await page.getByRole('button', { name: 'One more Two cups' }).click()
  await expect(page.getByRole('status')).toHaveText('Two cups: 2 in your cart.')
  await expect(amountOf(page, 'Two cups')).toHaveText('€48.00')
  await expect(totalRow(page)).toHaveText(/Total\s*€112\.00/)

  await page.getByRole('button', { name: 'One fewer Sencha, 100 g' }).click()
  await expect(amountOf(page, 'Sencha, 100 g')).toHaveText('€12.50')
  await expect(totalRow(page)).toHaveText(/Total\s*€99\.50/)

  await page.getByRole('button', { name: 'Remove Kyusu teapot' }).click()
  await expect(page.getByRole('status')).toHaveText('Removed Kyusu teapot from your cart.')
  await expect(cartRow(page, 'Kyusu teapot')).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Your cart' })).toBeFocused()
  await expect(totalRow(page)).toHaveText(/Total\s*€60\.50/)
  await expect(page.getByRole('link', { name: 'Cart (3)' })).toBeVisible()

  // The order is priced as the cart was.
  await page.getByRole('button', { name: 'Place order' }).click()
  await expect(page.getByRole('heading', { name: 'Review and pay' })).toBeVisible()
  await expect(totalRow(page)).toHaveText(/Total\s*€60\.50/)
  await expect(page.getByRole('button', { name: 'Pay €60.50' })).toBeVisible()
})

test('the order review shows each line’s total, not its unit price', async ({ page, shop }) => {
  await reviewOrder(page, shop, [
    { productId: 'sencha', quantity: 2 },
    { productId: 'whisk', quantity: 3 },
  ])
  await expect(page.getByRole('row', { name: '2 × Sencha, 100 g €25.00' })).toBeVisible()
  await expect(page.getByRole('row', { name: '3 × Bamboo whisk €29.70' })).toBeVisible()
  await expect(totalRow(page)).toHaveText(/Total\s*€54\.70/)
  await expect(page.getByRole('main')).not.toContainText('€12.50')
  await expect(page.getByRole('main')).not.toContainText('€9.90')
})

/** Each of the shop's pages, with something on it, drawn and ready. */
const PAGES: { name: string; open: (page: Page, shop: Shop) => Promise<void> }[] = [
  {
    name: 'products',
    open: async (page, shop) => {
      await page.goto(shop.url('/'))
      await addToCart(page, 'Kyusu teapot')
      await expect(page.getByRole('status')).not.toBeEmpty()
    },
  },
  {
    name: 'cart',
    open: async (page, shop) => {
      await page.goto(shop.url('/'))
      await addToCart(page, 'Two cups')
      await page.goto(shop.url('/cart.html'))
      await expect(totalRow(page)).toBeVisible()
    },
  },
  {
    name: 'order',
    open: async (page, shop) => {
      await reviewOrder(page, shop, [{ productId: 'teapot', quantity: 1 }])
      await expect(page.getByRole('button', { name: 'Pay €39.00' })).toBeVisible()
    },
  },
  {
    name: 'orders',
    open: async (page, shop) => {
      const order = await shop.placeOrder([{ productId: 'cups', quantity: 1 }])
      await page.goto(shop.url('/orders.html'))
      await expect(page.getByRole('main').getByText(order.id).first()).toBeVisible()
    },
  },
  {
    name: 'return',
    open: async (page, shop) => {
      const order = await shop.placeOrder([{ productId: 'whisk', quantity: 1 }])
      const { paymentId } = await shop.startPayment(order.id)
      await page.goto(shop.url(`/return.html?order=${order.id}&payment_id=${paymentId}`))
      await expect(page.getByText('Your payment is being confirmed on the network.')).toBeVisible()
    },
  },
]

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds nothing wrong on any of the shop’s pages (${scheme} scheme)`, async ({ page, shop }) => {
    await page.emulateMedia({ colorScheme: scheme })
    await page.clock.install()
    for (const { name, open } of PAGES) {
      await open(page, shop)
      await expectNoAxeViolations(page, `shop ${name}, ${scheme}`)
    }
  })
}

test('at 390 px wide, no page of the shop scrolls sideways', async ({ page, shop }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  for (const { name, open } of PAGES) {
    await open(page, shop)
    expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(390)
  }
})
