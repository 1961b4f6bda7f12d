import { describe, expect, it } from 'vitest'
import { SandboxReadyLine, TillReadyLine } from './ready-line.ts'

const addresses = { baseUrl: 'http://127.0.0.1:4000', checkoutUrl: 'http://127.0.0.1:4000/checkout' }
const credentials = { apiKey: 'till_sk_test_abc_secret', merchantId: 'mer_01', version: '2026-02-18', appId: 'app_sandbox01' }
const sandbox = { ...addresses, ...credentials }

describe('TillReadyLine', () => {
  it.each([
    ['a plain service', addresses],
    ['sandbox mode', sandbox],
    ['an IPv6 listening address', { baseUrl: 'http://[::1]:4000', checkoutUrl: 'https://pay.example.com/checkout' }],
  ])('accepts %s', (_, line) => {
    expect(TillReadyLine.parse(line)).toEqual(line)
  })

  it('drops fields a newer service may add, so an older launcher still starts it', () => {
    expect(TillReadyLine.parse({ ...addresses, pid: 42 })).toEqual(addresses)
  })

  it.each([
    ['no checkoutUrl', { baseUrl: addresses.baseUrl }, ['checkoutUrl']],
    ['a relative baseUrl', { ...addresses, baseUrl: '/api' }, ['baseUrl']],
    ['a non-http checkoutUrl', { ...addresses, checkoutUrl: 'ftp://127.0.0.1/checkout' }, ['checkoutUrl']],
    ['a live key', { ...sandbox, apiKey: 'till_sk_live_abc_secret' }, ['apiKey']],
    ['an unknown API version', { ...sandbox, version: '2020-01-01' }, ['version']],
    ['a merchant id with spaces', { ...sandbox, merchantId: 'mer 01' }, ['merchantId']],
    ['an app id with spaces', { ...sandbox, appId: 'app 01' }, ['appId']],
  ])('refuses %s', (_, line, path) => {
    const result = TillReadyLine.safeParse(line)
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((issue) => issue.path)).toContainEqual(path)
  })

  it('refuses part of the credentials, saying they come together', () => {
    const result = TillReadyLine.safeParse({ ...addresses, apiKey: credentials.apiKey })
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'apiKey, merchantId, version and appId come together (sandbox mode) or not at all',
    ])
  })

  it.each([null, 'ready', [addresses]])('refuses %j', (line) => {
    expect(TillReadyLine.safeParse(line).success).toBe(false)
  })
})

describe('SandboxReadyLine', () => {
  it('accepts the sandbox line', () => {
    expect(SandboxReadyLine.parse(sandbox)).toEqual(sandbox)
  })

  it('refuses a line without the credentials a launcher goes on to use', () => {
    const result = SandboxReadyLine.safeParse(addresses)
    expect(result.error?.issues.map((issue) => issue.path[0]).sort()).toEqual(['apiKey', 'appId', 'merchantId', 'version'])
  })
})
