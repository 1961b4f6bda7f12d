import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CHECKOUT_URL, createAccount, useTestApp, type Account } from '../../test/fixtures.ts'
import { createCheckoutPayment, embeddedData } from '../../test/checkout-fixtures.ts'
import { accountStore } from '../accounts/store.ts'
import { exchange, portOf } from '../http/raw-http.test-helper.ts'

const ctx = useTestApp({ config: { sandbox: true } })
// Listening too, for request lines no HTTP client sends.
beforeAll(() => ctx.app.listen({ port: 0, host: '127.0.0.1' }))
let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

const cspOf = (headers: Record<string, unknown>) => String(headers['content-security-policy'])

describe('GET /checkout/{paymentId}', () => {
  it("shows the merchant's name and the amount formatted for its currency", async () => {
    const { html } = await createCheckoutPayment(ctx.app, account, { amount: { unit: 'iso4217/EUR', value: '1999' } })
    expect(html).toContain('<p class="merchant-name">Shop</p>')
    expect(html).toMatch(/<h1 class="amount"[^>]*>€19\.99<\/h1>/)
    expect(html).toContain('<title>Pay €19.99 to Shop</title>')
  })

  it.each([
    ['JPY', '1500', '¥1,500'],
    ['KWD', '1234', 'KWD 1.234'],
    ['USD', '123456789012345678', '$1,234,567,890,123,456.78'],
  ])('formats %s %s exactly as %s', async (code, value, shown) => {
    const { html } = await createCheckoutPayment(ctx.app, account, { amount: { unit: `iso4217/${code}`, value } })
    expect(html.replace(/\u00a0/g, ' ')).toContain(`>${shown}</h1>`)
  })

  it("shows Till's copy of the merchant's logo, never the source address, and escapes what the merchant wrote", async () => {
    const digest = 'ab'.repeat(32)
    const merchant = await accountStore(ctx.tdb.db).createMerchant({
      partnerId: account.partnerId,
      name: 'Bits & <Bobs>',
      email: 'b@example.com',
      logo: { digest, sourceUrl: 'https://cdn.example/logo.png' },
      now: new Date(),
    })
    const { html } = await createCheckoutPayment(ctx.app, { ...account, headers: { ...account.headers, 'merchant-id': merchant.id } })
    expect(html).toContain(`<img src="${CHECKOUT_URL}/logos/${digest}/192.webp" alt=""`)
    expect(html).not.toContain('cdn.example')
    expect(html).toContain('Bits &amp; &lt;Bobs&gt;')
    expect(html).not.toContain('<Bobs>')
  })

  it('embeds what the page needs and nothing the buyer should not see', async () => {
    const { html, token } = await createCheckoutPayment(ctx.app, account, { referenceId: 'order-secret-42' })
    const { session } = embeddedData(html)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(session).toMatchObject({
      merchant: { name: 'Shop' },
      sandbox: true,
      state: { status: 'pending', isFinal: false, redirect: null },
    })
    expect(html).not.toContain('order-secret-42')
    expect(html).not.toContain(account.partnerId)
    expect(html).not.toContain(account.apiKey)
    // The return URLs are revealed only once the payment has ended.
    expect(html).not.toContain('shop.example')
  })

  it('is sent with a strict Content-Security-Policy, no framing and no referrer', async () => {
    const { paymentId } = await createCheckoutPayment(ctx.app, account)
    const response = await ctx.app.inject({ url: `/checkout/${paymentId}` })
    const csp = cspOf(response.headers)
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
    expect(response.headers).toMatchObject({
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex',
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    })
    // No inline script: every <script> either loads a file or is inert JSON.
    for (const tag of response.body.match(/<script[^>]*>/g) ?? []) expect(tag).toMatch(/ src="|type="application\/json"/)
  })

  it('answers an unknown or malformed payment id with a not-found page, with the same headers', async () => {
    for (const id of ['pay_00000000000000000000000000000000', 'nope', '%3Cscript%3E']) {
      const response = await ctx.app.inject({ url: `/checkout/${id}` })
      expect(response.statusCode).toBe(404)
      expect(response.headers['content-type']).toContain('text/html')
      expect(response.body).toContain('Payment not found')
      expect(response.body).not.toContain('<script')
      expect(cspOf(response.headers)).toContain("frame-ancestors 'none'")
    }
  })

  it('moves a trailing slash away, keeping the query, so relative URLs resolve', async () => {
    const { paymentId } = await createCheckoutPayment(ctx.app, account)
    const response = await ctx.app.inject({ url: `/checkout/${paymentId}/?returnUrl=app%3A%2F%2Fdone` })
    expect(response.statusCode).toBe(308)
    expect(response.headers.location).toBe(`/checkout/${paymentId}?returnUrl=app%3A%2F%2Fdone`)
  })

  it.each([
    ['an absolute-form target', (id: string) => `http://evil.example/checkout/${id}/?x=1`],
    ['an absolute-form https target', (id: string) => `https://evil.example/checkout/${id}/?x=1`],
    ['a target starting with //', (id: string) => `//evil.example/checkout/${id}/?x=1`],
    ['a target with doubled slashes', (id: string) => `/checkout//evil.example/../${id}/?x=1`],
  ])('never redirects to another host, whatever the request line says: %s', async (_case, target) => {
    const { paymentId } = await createCheckoutPayment(ctx.app, account)
    const response = await exchange(portOf(ctx.app), `GET ${target(paymentId)} HTTP/1.1\r\nHost: till.test\r\nConnection: close\r\n\r\n`)
    expect(response.headers['request-id']).toBeDefined()
    if (response.status === 308) expect(response.headers.location).toBe(`/checkout/${paymentId}?x=1`)
    else expect(response.headers.location).toBeUndefined()
  })

  it('serves the script and stylesheet it links, gzipped and cacheable for good', async () => {
    const { html } = await createCheckoutPayment(ctx.app, account)
    const links = [...html.matchAll(/(?:src|href)="\.\/assets\/([^"]+)"/g)].map((match) => match[1])
    expect(links).toHaveLength(2)
    for (const file of links) {
      const response = await ctx.app.inject({ url: `/checkout/assets/${file}`, headers: { 'accept-encoding': 'gzip, br' } })
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-encoding']).toBe('gzip')
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(response.headers['content-type']).toMatch(file?.endsWith('.js') ? /^text\/javascript/ : /^text\/css/)
    }
    const missing = await ctx.app.inject({ url: '/checkout/assets/checkout.000000000000.js' })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ code: 'not_found' })
  })

  it('serves the chunks the script imports only when needed (the wallet code, the outcome screens, a local chain’s dev wallet, the phone screen with its QR encoder), like the linked assets', async () => {
    const { html } = await createCheckoutPayment(ctx.app, account)
    const script = html.match(/<script type="module" src="\.\/assets\/([^"]+)"/)?.[1]
    const main = await ctx.app.inject({ url: `/checkout/assets/${script}` })
    // Imported lazily, by a path relative to the script: never linked from the page, never loaded up front.
    const lazy = [...main.body.matchAll(/import\("\.\/([^"]+)"\)/g)].map((match) => match[1])
    expect(lazy.toSorted()).toEqual([
      expect.stringMatching(/^browser-path\.[A-Z0-9]+\.js$/),
      expect.stringMatching(/^dev-wallet\.[A-Z0-9]+\.js$/),
      expect.stringMatching(/^outcome\.[A-Z0-9]+\.js$/),
      expect.stringMatching(/^phone-wallet\.[A-Z0-9]+\.js$/),
    ])
    for (const file of lazy) expect(html).not.toContain(file)
    expect(main.body).not.toMatch(/^import[^(]/m)
    const wallet = lazy.find((file) => file?.startsWith('browser-path.'))

    const chunk = await ctx.app.inject({ url: `/checkout/assets/${wallet}`, headers: { 'accept-encoding': 'gzip' } })
    expect(chunk.statusCode).toBe(200)
    expect(chunk.headers['content-type']).toMatch(/^text\/javascript/)
    expect(chunk.headers['content-encoding']).toBe('gzip')
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    // The page's own policy covers it: a script from the page's origin, no nonce or inline allowance needed.
    const csp = cspOf(chunk.headers)
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('nonce-')
    expect(csp).not.toContain('unsafe-inline')
    expect(chunk.headers['x-content-type-options']).toBe('nosniff')
    const plain = await ctx.app.inject({ url: `/checkout/assets/${wallet}` })
    expect(plain.body).toContain('eth_sendTransaction')
    expect(plain.body).toContain('a9059cbb')
  })
})

describe('GET /checkout/{paymentId} outside sandbox mode', () => {
  const live = useTestApp({ config: { sandbox: false } })

  it('offers no test wallets and no sandbox badge', async () => {
    const liveAccount = await createAccount(live.tdb.db)
    const { html } = await createCheckoutPayment(live.app, liveAccount)
    const { session } = embeddedData(html)
    expect(session).toMatchObject({ sandbox: false, wallets: [] })
    expect(html).not.toContain('class="badge"')
  })
})
