import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { randomToken } from '../core/ids.ts'

export type KeyMode = 'live' | 'test'

/**
 * An API key is `till_sk_<mode>_<id>_<secret>`. The id is public and finds the stored record; the secret
 * (256 random bits) is never stored: only the SHA-256 of the whole key is, and it is compared in constant
 * time. A fast hash is right here because the secret is random, not a password.
 */
const KEY_PATTERN = /^till_sk_(live|test)_([0-9a-hjkmnp-tv-z]{12})_([A-Za-z0-9_-]{43})$/

export type IssuedKey = { id: string; key: string; hash: Buffer }

export function issueApiKey(mode: KeyMode): IssuedKey {
  const id = randomToken(8).slice(0, 12)
  const key = `till_sk_${mode}_${id}_${randomBytes(32).toString('base64url')}`
  return { id, key, hash: hashApiKey(key) }
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest()
}

/** The key id, or undefined when the string cannot be a Till key at all. */
export function apiKeyId(key: string): string | undefined {
  return KEY_PATTERN.exec(key)?.[2]
}

export function apiKeyMatches(key: string, storedHash: Uint8Array): boolean {
  const presented = hashApiKey(key)
  return storedHash.length === presented.length && timingSafeEqual(presented, storedHash)
}
