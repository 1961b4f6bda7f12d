import { describe, expect, it } from 'vitest'
import { appendPaymentId, MAX_REDIRECT_URL_LENGTH, normalizeRedirectUrl } from './redirect-url.ts'

const strict = { allowLoopback: false }
const dev = { allowLoopback: true }

function reasonOf(raw: unknown, options = strict): string {
  const result = normalizeRedirectUrl(raw, options)
  if (result.ok) throw new Error(`expected ${JSON.stringify(raw)} to be refused, got ${result.url}`)
  return result.reason
}

function urlOf(raw: unknown, options = strict): string {
  const result = normalizeRedirectUrl(raw, options)
  if (!result.ok) throw new Error(`expected ${JSON.stringify(raw)} to be accepted: ${result.reason}`)
  return result.url
}

describe('normalizeRedirectUrl', () => {
  it.each([
    ['https://shop.example/thanks', 'https://shop.example/thanks'],
    ['https://shop.example', 'https://shop.example/'],
    ['HTTPS://Shop.Example/Thanks', 'https://shop.example/Thanks'],
    ['https://shop.example:443/a', 'https://shop.example/a'],
    ['https://shop.example:8443/a', 'https://shop.example:8443/a'],
    ['https://shop.example/a?order=1&x=y', 'https://shop.example/a?order=1&x=y'],
    ['https://shop.example/a#done', 'https://shop.example/a#done'],
    ['https://shop.example/a?order=1#done', 'https://shop.example/a?order=1#done'],
    ['https://shop.example/a%20b?q=%C3%A9', 'https://shop.example/a%20b?q=%C3%A9'],
    ['https://shop.example/a b', 'https://shop.example/a%20b'],
    ['https://bücher.example/', 'https://xn--bcher-kva.example/'],
    ['https://[2001:db8::1]/ok', 'https://[2001:db8::1]/ok'],
    ['https://203.0.113.7/ok', 'https://203.0.113.7/ok'],
  ])('accepts %s as %s', (raw, expected) => {
    expect(urlOf(raw)).toBe(expected)
  })

  it.each([
    [undefined, 'must be a string'],
    [null, 'must be a string'],
    [42, 'must be a string'],
    [{ href: 'https://shop.example/' }, 'must be a string'],
    ['', 'must be an absolute URL'],
    ['/thanks', 'must be an absolute URL'],
    ['shop.example/thanks', 'must be an absolute URL'],
    ['//shop.example/thanks', 'must be an absolute URL'],
    ['http://shop.example/thanks', 'must use the https scheme'],
    ['javascript:alert(1)', 'must use the https scheme'],
    ['data:text/html,hi', 'must use the https scheme'],
    ['ftp://shop.example/', 'must use the https scheme'],
    ['https://user:pw@shop.example/', 'must not contain credentials'],
    ['https://user@shop.example/', 'must not contain credentials'],
    ['https://:pw@shop.example/', 'must not contain credentials'],
    [' https://shop.example/', 'must not start or end with whitespace'],
    ['https://shop.example/ ', 'must not start or end with whitespace'],
    ['https://shop.example/\u00a0', 'must not start or end with whitespace'],
    ['https://shop.example/\tx', 'must not contain control characters'],
    ['https://shop.example/\nx', 'must not contain control characters'],
    ['https://shop.example/\u0000', 'must not contain control characters'],
    ['https://shop.example/\u007f', 'must not contain control characters'],
    ['https://shop.example/\r\n', 'must not contain control characters'],
    ['https://', 'must be an absolute URL'],
  ])('refuses %j', (raw, reason) => {
    expect(reasonOf(raw)).toBe(reason)
  })

  it('draws the length limit at exactly MAX_REDIRECT_URL_LENGTH characters', () => {
    const prefix = 'https://shop.example/'
    const atLimit = prefix + 'a'.repeat(MAX_REDIRECT_URL_LENGTH - prefix.length)
    expect(atLimit).toHaveLength(2048)
    expect(urlOf(atLimit)).toBe(atLimit)
    expect(reasonOf(`${atLimit}a`)).toMatch(/at most 2048/)
  })

  it('applies the limit to the normalized form too', () => {
    // Each inner space becomes %20 once normalized: 1000 of them grow by 2000 characters.
    const raw = `https://shop.example/a${' '.repeat(1000)}b`
    expect(raw.length).toBeLessThanOrEqual(MAX_REDIRECT_URL_LENGTH)
    expect(reasonOf(raw)).toMatch(/once normalized/)
  })

  it.each([
    'https://localhost/',
    'https://localhost:3000/done',
    'https://LOCALHOST/',
    'https://localhost./',
    'https://shop.localhost/',
    'https://127.0.0.1/',
    'https://127.8.9.10:8443/',
    'https://127.1/',
    'https://0x7f.0.0.1/',
    'https://[::1]/',
    'https://[0:0:0:0:0:0:0:1]/',
    'https://[::ffff:127.0.0.1]/',
  ])('refuses the loopback host of %s unless allowed', (raw) => {
    expect(reasonOf(raw)).toBe('must not point to a loopback host')
    expect(normalizeRedirectUrl(raw, dev).ok).toBe(true)
  })

  it.each(['https://localhost.example/', 'https://128.0.0.1/', 'https://mylocalhost/', 'https://[::2]/'])(
    'does not mistake %s for loopback',
    (raw) => {
      expect(normalizeRedirectUrl(raw, strict).ok).toBe(true)
    },
  )

  it('still refuses http for loopback in dev mode', () => {
    expect(reasonOf('http://localhost:3000/', dev)).toBe('must use the https scheme')
  })
})

describe('appendPaymentId', () => {
  it.each([
    ['https://shop.example/thanks', 'https://shop.example/thanks?payment_id=pay_1'],
    ['https://shop.example/', 'https://shop.example/?payment_id=pay_1'],
    ['https://shop.example/t?order=42', 'https://shop.example/t?order=42&payment_id=pay_1'],
    ['https://shop.example/t#top', 'https://shop.example/t?payment_id=pay_1#top'],
    ['https://shop.example/t?order=42#top', 'https://shop.example/t?order=42&payment_id=pay_1#top'],
    ['https://shop.example/t?', 'https://shop.example/t?payment_id=pay_1'],
    ['https://shop.example/t?a=1&', 'https://shop.example/t?a=1&payment_id=pay_1'],
    ['https://shop.example/t?#', 'https://shop.example/t?payment_id=pay_1#'],
    ['https://shop.example/t#frag?x=1&y', 'https://shop.example/t?payment_id=pay_1#frag?x=1&y'],
    ['https://[2001:db8::1]:8443/t?x=1', 'https://[2001:db8::1]:8443/t?x=1&payment_id=pay_1'],
    ['https://xn--bcher-kva.example/t', 'https://xn--bcher-kva.example/t?payment_id=pay_1'],
  ])('%s → %s', (url, expected) => {
    expect(appendPaymentId(url, 'pay_1')).toBe(expected)
  })

  it('keeps existing parameters byte-identical instead of re-serializing them', () => {
    const url = 'https://shop.example/t?q=a%20b&sig=abc~%27d&plus=a+b&raw=é&flag&empty=&a=1&a=2#x=%20y'
    expect(appendPaymentId(url, 'pay_1')).toBe(
      'https://shop.example/t?q=a%20b&sig=abc~%27d&plus=a+b&raw=é&flag&empty=&a=1&a=2&payment_id=pay_1#x=%20y',
    )
  })

  it('percent-encodes the payment id', () => {
    expect(appendPaymentId('https://shop.example/', 'a&b=c#d e/é')).toBe('https://shop.example/?payment_id=a%26b%3Dc%23d%20e%2F%C3%A9')
  })

  it('replaces an existing payment_id in place and drops duplicates', () => {
    expect(appendPaymentId('https://shop.example/t?a=1&payment_id=evil&b=2', 'pay_1')).toBe(
      'https://shop.example/t?a=1&payment_id=pay_1&b=2',
    )
    expect(appendPaymentId('https://shop.example/t?payment_id=x&a=1&payment_id=y#f', 'pay_1')).toBe(
      'https://shop.example/t?payment_id=pay_1&a=1#f',
    )
    expect(appendPaymentId('https://shop.example/t?payment_id', 'pay_1')).toBe('https://shop.example/t?payment_id=pay_1')
  })

  it('recognises payment_id however its name is encoded', () => {
    expect(appendPaymentId('https://shop.example/t?payment%5Fid=x&a=1', 'pay_1')).toBe('https://shop.example/t?payment_id=pay_1&a=1')
  })

  it('leaves look-alike names alone', () => {
    expect(appendPaymentId('https://shop.example/t?my_payment_id=x&payment_ids=y', 'pay_1')).toBe(
      'https://shop.example/t?my_payment_id=x&payment_ids=y&payment_id=pay_1',
    )
  })

  it('yields a URL in which payment_id has exactly our value', () => {
    const cases = [
      'https://shop.example/t?payment_id=a&payment_id=b',
      'https://shop.example/t?x=%ZZ&payment_id=a',
      'https://shop.example/t?x=1#payment_id=frag',
    ]
    for (const url of cases) {
      const out = new URL(appendPaymentId(url, 'pay 9'))
      expect(out.searchParams.getAll('payment_id')).toEqual(['pay 9'])
    }
  })

  it('keeps a normalized URL valid', () => {
    const normalized = urlOf('https://shop.example/t?order=1#done')
    const result = normalizeRedirectUrl(appendPaymentId(normalized, 'pay_1'), strict)
    expect(result).toEqual({ ok: true, url: 'https://shop.example/t?order=1&payment_id=pay_1#done' })
  })
})
