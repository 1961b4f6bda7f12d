import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { TillClient } from './client.ts'
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, resolveConfig } from './config.ts'

const KEY = 'till_sk_test_abcdefghijklmnop0123456789'
const options = { baseUrl: 'http://127.0.0.1:4000', apiKey: KEY }

describe('resolveConfig', () => {
  it.each([
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4000', ''],
    ['http://127.0.0.1:4000/', 'http://127.0.0.1:4000', ''],
    ['https://pay.example.com/till', 'https://pay.example.com', '/till'],
    ['https://pay.example.com/till//', 'https://pay.example.com', '/till'],
    [new URL('https://pay.example.com:8443/a/b/'), 'https://pay.example.com:8443', '/a/b'],
  ])('splits %s into origin and a base path without trailing slash', (baseUrl, origin, basePath) => {
    expect(resolveConfig({ ...options, baseUrl })).toMatchObject({ origin, basePath })
  })

  it('has defaults', () => {
    expect(resolveConfig(options)).toMatchObject({
      timeoutMs: DEFAULT_TIMEOUT_MS,
      maxRetries: DEFAULT_MAX_RETRIES,
      payVersion: undefined,
      merchantId: undefined,
    })
  })

  it.each([
    ['not a URL', 'localhost:4000'],
    ['another scheme', 'ftp://example.com'],
    ['credentials', 'https://user:pw@example.com'],
    ['a query', 'https://example.com/?a=1'],
  ])('refuses a baseUrl with %s', (_case, baseUrl) => {
    expect(() => resolveConfig({ ...options, baseUrl })).toThrow(TypeError)
  })

  it.each([
    ['timeoutMs', 0],
    ['timeoutMs', 1.5],
    ['maxRetries', -1],
    ['maxRetries', Number.NaN],
  ])('refuses %s = %s', (name, value) => {
    expect(() => resolveConfig({ ...options, [name]: value })).toThrow(new RegExp(name))
  })
})

describe('new TillClient', () => {
  it('refuses an unknown payVersion with the contract code unknown_api_version', () => {
    let thrown: unknown
    try {
      new TillClient({ ...options, payVersion: '2031-01-01' as never })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(TypeError)
    expect(thrown).toMatchObject({ code: 'unknown_api_version' })
    expect((thrown as Error).message).toContain('2026-02-18')
  })

  it('refuses a malformed payVersion with invalid_api_version', () => {
    expect(() => new TillClient({ ...options, payVersion: '2026-02-30' as never })).toThrow(
      expect.objectContaining({ code: 'invalid_api_version' }),
    )
  })

  it('accepts every known version', () => {
    expect(() => new TillClient({ ...options, payVersion: '2026-02-19.preview' })).not.toThrow()
  })

  it.each([undefined, '', 'has space', 'line\nbreak'])('refuses the apiKey %j without echoing it', (apiKey) => {
    expect(() => new TillClient({ ...options, apiKey: apiKey as string })).toThrow(/apiKey is required/)
    try {
      new TillClient({ ...options, apiKey: apiKey as string })
    } catch (error) {
      if (apiKey) expect((error as Error).message).not.toContain(apiKey)
    }
  })

  it('refuses a merchantId that cannot be a header value', () => {
    expect(() => new TillClient({ ...options, merchantId: 'mer_1\r\nX-Evil: 1' })).toThrow(/merchantId/)
  })

  it('never shows the key when inspected or serialised', async () => {
    const till = new TillClient({ ...options, merchantId: 'mer_1' })
    expect(inspect(till, { depth: 10, showHidden: true })).not.toContain(KEY)
    expect(JSON.stringify(till)).not.toContain(KEY)
    await till.close()
  })
})
