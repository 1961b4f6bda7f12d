import { describe, expect, it } from 'vitest'
import * as headers from './headers.ts'

describe('header names', () => {
  it('match the spec spelling', () => {
    expect(headers).toMatchObject({
      API_KEY_HEADER: 'Api-Key',
      MERCHANT_ID_HEADER: 'Merchant-Id',
      API_VERSION_HEADER: 'Pay-Version',
      APP_ID_HEADER: 'App-Id',
      CLIENT_ID_HEADER: 'Client-Id',
      IDEMPOTENCY_KEY_HEADER: 'Idempotency-Key',
      IDEMPOTENT_REPLAYED_HEADER: 'Idempotent-Replayed',
    })
  })

  it('are valid HTTP field names and distinct ignoring case', () => {
    const names = Object.values(headers)
    for (const name of names) expect(name).toMatch(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/)
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length)
  })
})
