import { describe, expect, it } from 'vitest'
import { newPaymentId, PAYMENT_ID_PATTERN, randomToken } from './ids.ts'

describe('ids', () => {
  it('carry at least 128 random bits in payment ids', () => {
    const id = newPaymentId()
    expect(id).toMatch(PAYMENT_ID_PATTERN)
    // 32 base32 characters = 160 bits.
    expect(id.slice(4)).toHaveLength(32)
  })

  it('encode every byte: all 32 symbols appear and lengths follow 5 bits per character', () => {
    expect(randomToken(5)).toHaveLength(8)
    expect(randomToken(16)).toHaveLength(26)
    const seen = new Set(Array.from({ length: 200 }, () => randomToken(20)).join(''))
    expect(seen.size).toBe(32)
  })

  it('do not repeat', () => {
    expect(new Set(Array.from({ length: 1000 }, newPaymentId)).size).toBe(1000)
  })
})
