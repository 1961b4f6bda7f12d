import { type CheckoutSession, fiatAmount } from '@till/contract'
import { describe, expect, it } from 'vitest'
import type { CheckoutAssets } from './page-assets.ts'
import { checkoutPageHtml, walletLinkPageHtml } from './page-html.ts'
import { en } from './page/strings.ts'

// The first paint's words (issue 22, point 5): what the amount is in the status the page is opened in,
// which badge it wears, and the wallet-link page's way back to the payment.

const asset = (fileName: string) => ({ fileName }) as CheckoutAssets['script']
const assets = { script: asset('checkout.js'), style: asset('checkout.css'), lazy: [] } as unknown as CheckoutAssets

const session = (status: CheckoutSession['state']['status'], extra: Partial<CheckoutSession> = {}): CheckoutSession => ({
  paymentId: 'pay_1',
  merchant: { name: 'Shop', iconUrl: null },
  amount: fiatAmount('EUR', 1250n),
  sandbox: true,
  wallets: [],
  state: {
    status,
    isFinal: status === 'succeeded' || status === 'failed' || status === 'expired',
    expiresAt: new Date().toISOString(),
    serverTime: new Date().toISOString(),
    redirect: null,
    paid: null,
  },
  ...extra,
})

const page = (input: CheckoutSession) => checkoutPageHtml({ session: input, token: 't', assets, t: en })
const label = (html: string) => /id="checkout-amount-label">([^<]*)</.exec(html)?.[1]
const badge = (html: string) => /<span class="badge">([^<]*)</.exec(html)?.[1]

describe('the first paint', () => {
  it('labels the amount as what it is in the status the page is opened in', () => {
    expect(label(page(session('pending')))).toBe('Amount due')
    expect(label(page(session('processing')))).toBe('Amount being paid')
    expect(label(page(session('succeeded')))).toBe('Amount paid')
    expect(label(page(session('failed')))).toBe('Amount not charged')
    expect(label(page(session('expired')))).toBe('Amount not paid')
  })

  it('wears the sandbox badge in the sandbox, the local test chain badge on a local chain, and none live', () => {
    expect(badge(page(session('pending')))).toBe('Sandbox')
    const local = page(session('pending', { localChain: true }))
    expect(badge(local)).toBe('Local test chain')
    // What it shows, not the data the script reads (its JSON says `"sandbox":true`).
    expect(local.replace(/<script[\s\S]*?<\/script>/g, '')).not.toMatch(/sandbox/i)
    expect(badge(page(session('pending', { sandbox: false })))).toBeUndefined()
  })
})

describe('the wallet-link page', () => {
  it('leads back to the checkout page it came from', () => {
    const html = walletLinkPageHtml({ assets, t: en, uri: 'wc:pay_1@2?relay-protocol=till-sandbox', back: './pay_1' })
    expect(html).toContain('<a class="return-link" href="./pay_1">Back to the checkout page</a>')
  })

  it('has no way back when it does not know the payment', () => {
    expect(walletLinkPageHtml({ assets, t: en, uri: 'wc:abc@2?relay-protocol=irn' })).not.toContain('Back to')
  })
})
