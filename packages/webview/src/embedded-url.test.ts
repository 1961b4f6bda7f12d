// Node's WHATWG URL, not the global of react-native's types (which this package's program also sees).
import { URL } from 'node:url'
import { returnUrlProblem, WEBVIEW_QUERY } from '@till/contract'
import { describe, expect, it } from 'vitest'
import { embeddedCheckoutUrl } from './embedded-url.ts'

const returnUrl = 'myapp://checkout/done?order=1001'

describe('embeddedCheckoutUrl', () => {
  it('sets returnUrl and preferUniversalLinks=1 on the gatewayUrl Till gave', () => {
    const url = new URL(embeddedCheckoutUrl('https://pay.example/checkout/pay_1', { returnUrl }))
    expect(url.origin + url.pathname).toBe('https://pay.example/checkout/pay_1')
    expect(url.searchParams.get(WEBVIEW_QUERY.returnUrl)).toBe(returnUrl)
    expect(url.searchParams.get(WEBVIEW_QUERY.preferUniversalLinks)).toBe('1')
    expect([...url.searchParams.keys()]).toEqual(['returnUrl', 'preferUniversalLinks'])
  })

  it('keeps the path, the other query parameters (byte for byte) and the fragment', () => {
    const gatewayUrl = 'https://pay.example:8443/t/acme/checkout/pay_1/?lang=de&token=a%2Bb%20c&flag&x=1+2#section-2'
    expect(embeddedCheckoutUrl(gatewayUrl, { returnUrl: 'myapp://done' })).toBe(
      'https://pay.example:8443/t/acme/checkout/pay_1/?lang=de&token=a%2Bb%20c&flag&x=1+2&returnUrl=myapp%3A%2F%2Fdone&preferUniversalLinks=1#section-2',
    )
  })

  it('replaces earlier values of the two parameters, however they were written', () => {
    const gatewayUrl =
      'https://pay.example/checkout/pay_1?returnUrl=old%3A%2F%2Fx&a=1&preferUniversalLinks=0&returnUrl=other&preferUniversal%4Cinks=2#f'
    const built = embeddedCheckoutUrl(gatewayUrl, { returnUrl })
    const url = new URL(built)
    expect(url.searchParams.getAll('returnUrl')).toEqual([returnUrl])
    expect(url.searchParams.getAll('preferUniversalLinks')).toEqual(['1'])
    expect(url.searchParams.get('a')).toBe('1')
    expect(url.hash).toBe('#f')
    expect(embeddedCheckoutUrl(built, { returnUrl })).toBe(built)
  })

  it('handles a gatewayUrl with an empty query, a bare host, or a fragment with ? in it', () => {
    expect(embeddedCheckoutUrl('https://pay.example/c?', { returnUrl: 'myapp://d' })).toBe(
      'https://pay.example/c?returnUrl=myapp%3A%2F%2Fd&preferUniversalLinks=1',
    )
    expect(embeddedCheckoutUrl('https://pay.example', { returnUrl: 'myapp://d' })).toBe(
      'https://pay.example?returnUrl=myapp%3A%2F%2Fd&preferUniversalLinks=1',
    )
    expect(embeddedCheckoutUrl('https://pay.example/c#a?b=1', { returnUrl: 'myapp://d' })).toBe(
      'https://pay.example/c?returnUrl=myapp%3A%2F%2Fd&preferUniversalLinks=1#a?b=1',
    )
  })

  it('encodes a returnUrl with its own query and fragment so that it comes back whole', () => {
    const url = new URL(embeddedCheckoutUrl('https://pay.example/checkout/pay_1?z=9', { returnUrl: 'https://shop.example/r?a=1&b=2#h' }))
    expect(url.searchParams.get('returnUrl')).toBe('https://shop.example/r?a=1&b=2#h')
    expect(url.searchParams.get('z')).toBe('9')
  })

  it.each([
    'myapp://checkout/done',
    'myapp:done',
    'com.shop.app://pay/return?order=1',
    'https://shop.example/app/return',
    'https://shop.example:8443/r?o=1#x',
    'http://127.0.0.1:8080/return',
    'http://localhost/return',
    'http://[::1]:3000/return',
  ])('accepts the returnUrl %s', (value) => {
    const url = new URL(embeddedCheckoutUrl('https://pay.example/checkout/pay_1', { returnUrl: value }))
    expect(url.searchParams.get('returnUrl')).toBe(value)
    expect(URL.canParse(value)).toBe(true)
    // The checkout page accepts it too.
    expect(returnUrlProblem(value)).toBeUndefined()
  })

  it.each([
    ['', /returnUrl must be an absolute URL/],
    ['checkout/done', /returnUrl must be an absolute URL/],
    ['//shop.example/return', /returnUrl must be an absolute URL/],
    ['javascript:alert(1)', /returnUrl .*not a javascript: URL/],
    ['JAVASCRIPT:alert(1)', /not a javascript: URL/],
    ['data:text/html,<script>alert(1)</script>', /not a data: URL/],
    ['file:///etc/passwd', /not a file: URL/],
    ['vbscript:msgbox(1)', /not a vbscript: URL/],
    ['blob:https://shop.example/1', /not a blob: URL/],
    ['about:blank', /not a about: URL/],
    ['wss://shop.example/r', /not a wss: URL/],
    ['http://shop.example/return', /returnUrl must use https \(http only on 127\.0\.0\.1, localhost, \[::1\]\)/],
    ['http://127.0.0.1.nip.io/return', /must use https/],
    ['http://localhost@shop.example/return', /must use https/],
    ['https://', /host is missing or malformed/],
    ['https://shop example/return', /not an absolute URL/],
    ['myapp://done\n', /not an absolute URL/],
    ['https://shop.example/r?x=a b', /not an absolute URL/],
    ['myapp://done\uD800', /lone surrogate/],
  ])('refuses the returnUrl %j', (value, message) => {
    // Stricter than the page at most: whatever the page refuses is refused here first.
    expect(() => embeddedCheckoutUrl('https://pay.example/checkout/pay_1', { returnUrl: value })).toThrow(TypeError)
    expect(() => embeddedCheckoutUrl('https://pay.example/checkout/pay_1', { returnUrl: value })).toThrow(message)
  })

  it.each([
    ['http://127.0.0.1:4000/checkout/pay_1'],
    ['http://localhost:4000/checkout/pay_1'],
    ['http://[::1]:4000/checkout/pay_1'],
    ['https://pay.example/checkout/pay_1'],
    ['https://user@pay.example:443/checkout/pay_1'],
  ])('accepts the gatewayUrl %s', (gatewayUrl) => {
    expect(embeddedCheckoutUrl(gatewayUrl, { returnUrl }).startsWith(`${gatewayUrl}?`)).toBe(true)
  })

  it.each([
    ['', /gatewayUrl must be the absolute https URL Till returned .*not an absolute URL/],
    ['/checkout/pay_1', /not an absolute URL/],
    ['pay.example/checkout/pay_1', /not an absolute URL/],
    ['//pay.example/checkout', /not an absolute URL/],
    ['http://pay.example/checkout/pay_1', /http to a host that is not a loopback host/],
    ['http://127.0.0.1.evil.example/checkout', /not a loopback host/],
    ['http://127.0.0.1@evil.example/checkout', /not a loopback host/],
    ['ftp://pay.example/checkout', /got a ftp: URL/],
    ['javascript:alert(1)//https://pay.example', /got a javascript: URL/],
    ['data:text/html,hi', /got a data: URL/],
    ['https://', /host is missing or malformed/],
    ['https:pay.example/checkout', /host is missing or malformed/],
    ['https://pay.example:99999/checkout', /host is missing or malformed/],
    ['https://pay.example:80a/checkout', /host is missing or malformed/],
    ['https://pay_example/checkout', /host is missing or malformed/],
    ['https://pay.example/check out', /not an absolute URL/],
    ['https:\\\\pay.example\\checkout', /not an absolute URL/],
  ])('refuses the gatewayUrl %j', (gatewayUrl, message) => {
    expect(() => embeddedCheckoutUrl(gatewayUrl, { returnUrl })).toThrow(TypeError)
    expect(() => embeddedCheckoutUrl(gatewayUrl, { returnUrl })).toThrow(message)
  })

  it('refuses values that are not strings (a caller in plain JavaScript)', () => {
    expect(() => embeddedCheckoutUrl(undefined as unknown as string, { returnUrl })).toThrow('gatewayUrl must be a string')
    expect(() => embeddedCheckoutUrl('https://pay.example/c', {} as { returnUrl: string })).toThrow('returnUrl must be a string')
    expect(() => embeddedCheckoutUrl('https://pay.example/c', undefined as unknown as { returnUrl: string })).toThrow(
      'returnUrl must be a string',
    )
  })

  it('keeps a gatewayUrl that the WHATWG parser reads the same before and after', () => {
    for (const gatewayUrl of [
      'https://pay.example/a/b?c=d&e=f#g',
      'https://pay.example:8443/?x=%F0%9F%92%B8',
      'http://localhost:4000/c/p',
    ]) {
      const before = new URL(gatewayUrl)
      const after = new URL(embeddedCheckoutUrl(gatewayUrl, { returnUrl }))
      expect([after.origin, after.pathname, after.hash]).toEqual([before.origin, before.pathname, before.hash])
      for (const [key, value] of before.searchParams) expect(after.searchParams.getAll(key)).toContain(value)
    }
  })

  it('refuses every returnUrl the checkout page refuses', () => {
    const values = [
      '',
      'done',
      'javascript:x',
      'data:,x',
      'vbscript:x',
      'file:///x',
      'blob:https://x/1',
      'about:blank',
      'http://shop.example/r',
    ]
    for (const value of values) {
      expect(returnUrlProblem(value), value).toBeDefined()
      expect(() => embeddedCheckoutUrl('https://pay.example/c', { returnUrl: value }), value).toThrow(TypeError)
    }
  })
})
