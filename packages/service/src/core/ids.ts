import { randomBytes } from 'node:crypto'

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz' // Crockford base32, lower case: no i, l, o, u

/** Base32 of `bytes` random bytes: 5 bits per character, URL-safe, case-insensitive to read aloud. */
export function randomToken(bytes: number): string {
  const buffer = randomBytes(bytes)
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of buffer) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31]
  return out
}

// 20 random bytes = 160 bits: a payment id is also the capability to open its checkout page.
export const newPaymentId = () => `pay_${randomToken(20)}`
export const newMerchantId = () => `mer_${randomToken(16)}`
export const newPartnerId = () => `ptn_${randomToken(16)}`
/** Public by design (a wallet app ships it), so it grants nothing without the partner's say-so in a Client-Id. */
export const newAppId = () => `app_${randomToken(16)}`
export const newWebhookEndpointId = () => `we_${randomToken(16)}`

export const PAYMENT_ID_PATTERN = /^pay_[0-9a-hjkmnp-tv-z]{32}$/
