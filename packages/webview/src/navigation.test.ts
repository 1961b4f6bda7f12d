// Node's WHATWG URL, not the global of react-native's types (which this package's program also sees).
import { URL } from 'node:url'
import { isWalletLink } from '@till/contract'
import { describe, expect, it } from 'vitest'
import { decideNavigation } from './navigation.ts'

describe('decideNavigation: the decision table of spec 4.8', () => {
  it.each([
    // Wallet links: the `uri` parameter starts with wc:, whatever the scheme that carries it.
    ['https://metamask.app.link/wc?uri=wc:7f6e@2?relay-protocol=irn&symKey=abc', 'open-externally'],
    ['https://link.trustwallet.com/wc?uri=wc%3A7f6e%402%3Frelay-protocol%3Dirn', 'open-externally'],
    ['metamask://wc?uri=wc:7f6e@2?relay-protocol=irn', 'open-externally'],
    ['trust://wc?uri=wc%3Aabc', 'open-externally'],
    ['HTTPS://wallet.example/open?redirect=1&uri=wc:abc#top', 'open-externally'],
    ['http://127.0.0.1:4000/checkout/pay_1/wallet-link?uri=wc:pay_1@2?relay-protocol=till-sandbox', 'open-externally'],
    ['https://wallet.example/?uri=wc:&returnUrl=myapp%3A%2F%2Fdone', 'open-externally'],
    ['https://wallet.example/?uri=wc:a&uri=https://x', 'open-externally'],
    // A `uri` that is not a wallet URI: the usual rules.
    ['https://wallet.example/?uri=https://elsewhere.example', 'allow'],
    ['https://wallet.example/?uri=WC:abc', 'allow'],
    ['https://wallet.example/?uri=+wc:abc', 'allow'],
    ['https://wallet.example/?uri=%20wc:abc', 'allow'],
    ['https://wallet.example/?uri=x&uri=wc:abc', 'allow'],
    ['https://wallet.example/?url=wc:abc', 'allow'],
    ['https://wallet.example/#uri=wc:abc', 'allow'],
    ['https://wallet.example/?uri+=wc:abc', 'allow'],
    ['metamask://wc?uri=mm:abc', 'block'],
    ['tel:+15551234?uri=x', 'block'],
    // Schemes that never go to the OS, even with uri=wc:.
    ['javascript:alert(1)//?uri=wc:abc', 'block'],
    ['data:text/html,<b>x</b>?uri=wc:abc', 'block'],
    ['file:///etc/passwd?uri=wc:abc', 'block'],
    ['blob:https://x.example/0b1c?uri=wc:abc', 'block'],
    ['content://media/external/1?uri=wc:abc', 'block'],
    ['about:blank?uri=wc:abc', 'allow'],
    // Loaded in the WebView: https and about only.
    ['https://pay.example/checkout/pay_1?returnUrl=myapp%3A%2F%2Fdone&preferUniversalLinks=1', 'allow'],
    ['https://pay.example', 'allow'],
    ['HTTPS://PAY.EXAMPLE/', 'allow'],
    ['about:blank', 'allow'],
    ['about:srcdoc', 'allow'],
    // Everything else is blocked.
    ['http://pay.example/checkout', 'block'],
    ['http://127.0.0.1:4000/checkout', 'block'],
    ['tel:+15551234567', 'block'],
    ['sms:+15551234567?body=hi', 'block'],
    ['intent://scan/#Intent;scheme=zxing;package=com.google.zxing.client.android;end', 'block'],
    ['javascript:alert(1)', 'block'],
    ['JavaScript:alert(1)', 'block'],
    ['data:text/html;base64,PHNjcmlwdD4=', 'block'],
    ['file:///data/data/app/secret', 'block'],
    ['mailto:help@shop.example', 'block'],
    ['myapp://checkout/done', 'block'],
    ['wc:7f6e@2?relay-protocol=irn', 'block'],
    ['ws://pay.example/socket', 'block'],
    ['market://details?id=io.metamask', 'block'],
    // Not a URL at all.
    ['', 'block'],
    ['not a url', 'block'],
    ['//pay.example/checkout', 'block'],
    ['/relative/path?uri=wc:abc', 'block'],
    ['?uri=wc:abc', 'block'],
    ['https://pay.example/a b', 'block'],
    [' https://pay.example/', 'block'],
    ['https://pay.example/\n', 'block'],
    ['https:\\\\pay.example', 'block'],
    ['1https://pay.example', 'block'],
    [':', 'block'],
  ] as const)('%s → %s', (url, action) => {
    const decision = decideNavigation(url)
    expect(decision.action).toBe(action)
    expect(decision.reason).toMatch(/\S/)
    // The checkout page's own idea of a wallet link agrees, but for the schemes never given to the OS.
    if (!/^(javascript|data|file|blob|content|about):/i.test(url)) expect(isWalletLink(url)).toBe(action === 'open-externally')
  })

  it('blocks what is not a string (a host written in plain JavaScript)', () => {
    for (const value of [undefined, null, 42, {}, ['https://x']]) {
      expect(decideNavigation(value as unknown as string)).toEqual({ action: 'block', reason: 'not a well-formed absolute URL' })
    }
  })

  it('says why, in short', () => {
    expect(decideNavigation('tel:+15551234567').reason).toBe('tel: is blocked: only https and about load in the checkout')
    expect(decideNavigation('https://pay.example/').reason).toBe('https loads in the WebView')
    expect(decideNavigation('metamask://wc?uri=wc:1').reason).toMatch(/wallet link.*whole URL/)
  })

  it('allows http to a loopback host only when asked to (a Till on the developer’s machine)', () => {
    const dev = { allowLoopbackHttp: true }
    expect(decideNavigation('http://127.0.0.1:4000/checkout/pay_1', dev).action).toBe('allow')
    expect(decideNavigation('http://localhost:4000/', dev).action).toBe('allow')
    expect(decideNavigation('http://[::1]:4000/', dev).action).toBe('allow')
    expect(decideNavigation('http://LOCALHOST/', dev).action).toBe('allow')
    expect(decideNavigation('http://127.0.0.1.nip.io/', dev).action).toBe('block')
    expect(decideNavigation('http://localhost.evil.example/', dev).action).toBe('block')
    expect(decideNavigation('http://127.0.0.1@evil.example/', dev).action).toBe('block')
    expect(decideNavigation('http://pay.example/', dev).action).toBe('block')
    expect(decideNavigation('tel:+1555', dev).action).toBe('block')
  })

  it('reads `uri` as URLSearchParams does: the first value, form-decoded', () => {
    const links = [
      'https://x.example/?uri=wc%3Aabc',
      'https://x.example/?a=1&uri=wc:1&uri=x',
      'https://x.example/?uri=x&uri=wc:1',
      'https://x.example/?uri=%E0%A4%A',
      'https://x.example/?%75ri=wc:1',
      'https://x.example/?uri=wc:%zz',
      'https://x.example/?uri',
      'https://x.example/?uri+=wc:1',
      'https://x.example/?&&uri=wc:1&&',
      'https://x.example/#?uri=wc:1',
      'metamask://wc?uri=wc:abc@2?relay=1',
    ]
    for (const link of links) {
      const expected = new URL(link).searchParams.get('uri')?.startsWith('wc:') === true
      expect(decideNavigation(link).action === 'open-externally', link).toBe(expected)
    }
  })
})
