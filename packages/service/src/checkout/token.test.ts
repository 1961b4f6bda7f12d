import { describe, expect, it } from 'vitest'
import { checkoutTokens } from './token.ts'

const tokens = checkoutTokens(Buffer.alloc(32, 7))
const otherKey = checkoutTokens(Buffer.alloc(32, 8))

/** The token with the character at `index` replaced by a different base64url character that changes its bytes. */
function changeAt(token: string, index: number): string {
  const char = token[index] === 'A' ? 'g' : 'A'
  return token.slice(0, index) + char + token.slice(index + 1)
}

describe('checkout tokens', () => {
  it('are 43 characters of base64url (32 bytes, unpadded)', () => {
    for (const id of ['pay_1', 'pay_2', 'pay_01JNX0000000000000000000', '']) {
      expect(tokens.issue(id)).toMatch(/^[A-Za-z0-9_-]{43}$/)
    }
  })

  it('are the same every time for one payment and key', () => {
    expect(tokens.issue('pay_1')).toBe(tokens.issue('pay_1'))
    expect(checkoutTokens(Buffer.alloc(32, 7)).issue('pay_1')).toBe(tokens.issue('pay_1'))
  })

  it('verify for the payment they were issued for', () => {
    expect(tokens.verify('pay_1', tokens.issue('pay_1'))).toBe(true)
  })

  it("refuse another payment's token", () => {
    expect(tokens.issue('pay_1')).not.toBe(tokens.issue('pay_2'))
    expect(tokens.verify('pay_1', tokens.issue('pay_2'))).toBe(false)
    expect(tokens.verify('pay_2', tokens.issue('pay_1'))).toBe(false)
  })

  it('refuse a token issued with another key', () => {
    expect(tokens.verify('pay_1', otherKey.issue('pay_1'))).toBe(false)
  })

  it('refuse a truncated or extended token', () => {
    const token = tokens.issue('pay_1')
    expect(tokens.verify('pay_1', token.slice(0, 42))).toBe(false)
    expect(tokens.verify('pay_1', token.slice(0, 20))).toBe(false)
    expect(tokens.verify('pay_1', `${token}A`)).toBe(false)
    expect(tokens.verify('pay_1', `${token}=`)).toBe(false)
  })

  it('refuse a modified token', () => {
    const token = tokens.issue('pay_1')
    for (const index of [0, 10, 21, 41]) {
      expect(tokens.verify('pay_1', changeAt(token, index)), `changed at ${index}`).toBe(false)
    }
    // Characters outside base64url decode to fewer bytes.
    expect(tokens.verify('pay_1', `${token.slice(0, 42)}!`)).toBe(false)
    expect(tokens.verify('pay_1', `${token.slice(0, 42)}=`)).toBe(false)
  })

  it('refuse strings that decode to the same bytes but are not the token issued', () => {
    const token = tokens.issue('pay_1')
    // The last of 43 base64url characters carries 2 spare bits; lenient decoding ignores them.
    const last = token.at(-1) ?? 'A'
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const base = alphabet.indexOf(last) & ~3
    for (let spare = 0; spare < 4; spare++) {
      const variant = `${token.slice(0, 42)}${alphabet[base + spare]}`
      if (variant !== token) expect(tokens.verify('pay_1', variant), variant).toBe(false)
    }
    // Standard base64's + and / decode like base64url's - and _.
    const standard = token.replace(/-/g, '+').replace(/_/g, '/')
    if (standard !== token) expect(tokens.verify('pay_1', standard)).toBe(false)
    expect(tokens.verify('pay_1', token.replace(/[A-Za-z0-9]/, '-').replace('-', '+'))).toBe(false)
  })

  it('refuse an empty or missing token', () => {
    expect(tokens.verify('pay_1', '')).toBe(false)
    expect(tokens.verify('pay_1', undefined)).toBe(false)
  })
})
