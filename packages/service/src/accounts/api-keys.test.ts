import { describe, expect, it } from 'vitest'
import { apiKeyId, apiKeyMatches, hashApiKey, issueApiKey } from './api-keys.ts'

describe('API keys', () => {
  it('are issued with a public id, a 256-bit secret, and only their hash kept', () => {
    const issued = issueApiKey('live')
    expect(issued.key).toMatch(/^till_sk_live_[0-9a-z]{12}_[A-Za-z0-9_-]{43}$/)
    expect(apiKeyId(issued.key)).toBe(issued.id)
    expect(issued.hash).toEqual(hashApiKey(issued.key))
    expect(issued.hash.toString('hex')).not.toContain(issued.key)
  })

  it('match only the exact key', () => {
    const issued = issueApiKey('test')
    expect(apiKeyMatches(issued.key, issued.hash)).toBe(true)
    expect(apiKeyMatches(`${issued.key}x`, issued.hash)).toBe(false)
    expect(
      apiKeyMatches(
        issued.key.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        issued.hash,
      ),
    ).toBe(false)
    expect(apiKeyMatches(issued.key, new Uint8Array(16))).toBe(false)
  })

  it('reject strings that cannot be keys before any lookup', () => {
    for (const key of ['', 'till_sk_live_short_x', 'sk_live_abc', `till_sk_prod_${'a'.repeat(12)}_${'b'.repeat(43)}`]) {
      expect(apiKeyId(key)).toBeUndefined()
    }
  })

  it('are all different', () => {
    const keys = new Set(Array.from({ length: 200 }, () => issueApiKey('live').key))
    expect(keys.size).toBe(200)
  })
})
