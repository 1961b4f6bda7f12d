import { parseSandboxWalletLink } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { createCheckoutPayment, embeddedData } from '../../test/checkout-fixtures.ts'
import { CHECKOUT_URL, createAccount, useTestApp, type Account } from '../../test/fixtures.ts'

// Spec 4.8: an app loads gatewayUrl with its returnUrl and preferUniversalLinks=1 in a WebView.
const ctx = useTestApp({ config: { sandbox: true } })
let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

const page = (paymentId: string, query: string) => ctx.app.inject({ url: `/checkout/${paymentId}?${query}` })

const mobileWallet = (html: string) => embeddedData(html).session.wallets.find((wallet) => wallet.id === 'sandbox_mobile')

describe('an embedded checkout page', () => {
  it('passes the app’s returnUrl and preferUniversalLinks=1 on to its wallet links', async () => {
    const { paymentId } = await createCheckoutPayment(ctx.app, account)
    const embedded = await page(paymentId, `returnUrl=${encodeURIComponent('myapp://orders/7?done=1')}&preferUniversalLinks=1`)
    expect(embedded.statusCode).toBe(200)
    const link = mobileWallet(embedded.body)?.link ?? ''
    expect(new URL(link).searchParams.get('preferUniversalLinks')).toBe('1')
    expect(parseSandboxWalletLink(link)).toEqual({ checkoutUrl: CHECKOUT_URL, paymentId, returnUrl: 'myapp://orders/7?done=1' })
  })

  it('opened in a browser, links to the wallet without an app’s return link', async () => {
    const { paymentId, html } = await createCheckoutPayment(ctx.app, account)
    const link = mobileWallet(html)?.link ?? ''
    expect(parseSandboxWalletLink(link)).toEqual({ checkoutUrl: CHECKOUT_URL, paymentId, returnUrl: null })
    expect(new URL(link).searchParams.has('preferUniversalLinks')).toBe(false)
  })

  it.each([
    ['returnUrl=javascript%3Aalert(1)&preferUniversalLinks=1', 'returnUrl', 'not a javascript: URL'],
    ['returnUrl=data%3Atext%2Fhtml%2Chi&preferUniversalLinks=1', 'returnUrl', 'not a data: URL'],
    ['returnUrl=http%3A%2F%2Fapp.example.com%2Fback&preferUniversalLinks=1', 'returnUrl', 'must use https'],
    ['returnUrl=orders%2F7&preferUniversalLinks=1', 'returnUrl', 'must be an absolute URL'],
    ['preferUniversalLinks=1', 'returnUrl', 'is required'],
    ['returnUrl=myapp%3A%2F%2Fdone', 'preferUniversalLinks', 'must be 1'],
    ['returnUrl=myapp%3A%2F%2Fdone&preferUniversalLinks=0', 'preferUniversalLinks', 'must be 1'],
    ['returnUrl=myapp%3A%2F%2Fa&returnUrl=myapp%3A%2F%2Fb&preferUniversalLinks=1', 'returnUrl', 'must be given once'],
  ])('given %s, shows the app developer what to fix and never goes there', async (query, field, words) => {
    const { paymentId } = await createCheckoutPayment(ctx.app, account)
    const answer = await page(paymentId, query)
    expect(answer.statusCode).toBe(400)
    expect(answer.body).toContain('This checkout cannot be embedded as given')
    expect(answer.body).toMatch(new RegExp(`<li><code>${field}</code> [^<]*${words}`))
    // No script, no checkout data: nothing on the page can navigate anywhere.
    expect(answer.body).not.toContain('<script')
  })
})

describe('GET /checkout/wallet-link', () => {
  it('tells a browser that the link opens in a wallet app', async () => {
    const answer = await ctx.app.inject({
      url: `/checkout/wallet-link?uri=${encodeURIComponent('wc:pay_1@2?relay-protocol=till-sandbox')}`,
    })
    expect(answer.statusCode).toBe(200)
    expect(answer.body).toContain('<h1 class="heading" id="wallet-link">This link opens in a wallet app</h1>')
    expect(answer.body).toContain('wc:pay_1@2?relay-protocol=till-sandbox')
    expect(answer.body).not.toContain('<script')
    // A sandbox link names its payment: the page leads back to it, relative to itself.
    expect(answer.body).toContain('<a class="return-link" href="./pay_1">Back to the checkout page</a>')
  })

  it('has no way back for a link that names no payment of this service', async () => {
    const answer = await ctx.app.inject({ url: `/checkout/wallet-link?uri=${encodeURIComponent('wc:abc@2?relay-protocol=irn')}` })
    expect(answer.statusCode).toBe(200)
    expect(answer.body).not.toContain('Back to the checkout page')
  })

  it('says when it is not a wallet link', async () => {
    const answer = await ctx.app.inject({ url: '/checkout/wallet-link?uri=https%3A%2F%2Fevil.example' })
    expect(answer.statusCode).toBe(400)
    expect(answer.body).toContain('This is not a wallet link')
  })
})
