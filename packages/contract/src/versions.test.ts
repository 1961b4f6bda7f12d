import { describe, expect, it } from 'vitest'
import { API_VERSIONS, ApiVersion, compareApiVersions, DEFAULT_API_VERSION, parseApiVersion } from './versions.ts'

describe('API_VERSIONS', () => {
  it('lists the two named versions, oldest first', () => {
    expect(API_VERSIONS).toEqual(['2026-02-18', '2026-02-19.preview'])
    const dates = API_VERSIONS.map((v) => v.slice(0, 10))
    expect([...dates].sort()).toEqual(dates)
  })

  it('defaults to the stable version', () => {
    expect(DEFAULT_API_VERSION).toBe('2026-02-18')
    expect(ApiVersion.safeParse(DEFAULT_API_VERSION).success).toBe(true)
  })
})

describe('parseApiVersion', () => {
  it.each(API_VERSIONS)('knows %s', (v) => {
    expect(parseApiVersion(v)).toEqual({ ok: true, version: v })
  })

  it.each([
    '2026-2-18',
    '2026-02-30',
    '2026-02-29',
    '2025-13-01',
    '2025-00-10',
    '2025-01-00',
    '2025-04-31',
    'latest',
    '2026-02-18.PREVIEW',
    '2026-02-18.',
    '2026-02-18.1preview',
    '2026-02-18.pre-view',
    '2026-02-18.preview.x',
    '2026-02-18 ',
    ' 2026-02-18',
    '20260218',
    '2026/02/18',
    '',
  ])('calls %j malformed', (v) => {
    expect(parseApiVersion(v)).toEqual({ ok: false, code: 'invalid_api_version' })
  })

  it.each(['2025-01-01', '2026-02-17', '2026-02-19', '2026-02-18.beta', '2028-02-29', '2024-02-29', '2000-02-29', '2026-12-31.v2'])(
    'calls the well-formed %j unknown',
    (v) => {
      expect(parseApiVersion(v)).toEqual({ ok: false, code: 'unknown_api_version' })
    },
  )

  it('treats 1900-02-29 as malformed (not a leap year) and 2000-02-29 as well-formed', () => {
    expect(parseApiVersion('1900-02-29')).toEqual({ ok: false, code: 'invalid_api_version' })
    expect(parseApiVersion('2000-02-29')).toEqual({ ok: false, code: 'unknown_api_version' })
  })
})

describe('compareApiVersions', () => {
  it('orders by position', () => {
    expect(compareApiVersions('2026-02-18', '2026-02-19.preview')).toBeLessThan(0)
    expect(compareApiVersions('2026-02-19.preview', '2026-02-18')).toBeGreaterThan(0)
    expect(compareApiVersions('2026-02-18', '2026-02-18')).toBe(0)
  })
})
