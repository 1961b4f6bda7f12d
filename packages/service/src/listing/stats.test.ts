import { describe, expect, it } from 'vitest'
import { splitDays } from './days.ts'
import { toStandardUnit } from './stats.ts'

describe('toStandardUnit', () => {
  it.each([
    [1250n, 'USD', 12.5],
    [30n, 'USD', 0.3],
    [5n, 'EUR', 0.05],
    [1234n, 'JPY', 1234],
    [1005n, 'KWD', 1.005],
    [1n, 'KWD', 0.001],
    [0n, 'USD', 0],
    [-1250n, 'USD', -12.5],
  ])('%s minor units of %s are %s', (minor, currency, expected) => {
    expect(toStandardUnit(minor, currency)).toBe(expected)
  })

  it('parses the exact decimal once: 0.1 + 0.2 in cents is 0.3, not 0.30000000000000004', () => {
    expect(toStandardUnit(10n + 20n, 'USD')).toBe(0.3)
  })
})

describe('splitDays', () => {
  it('reads whole days from rollups and leaves no edge when the range starts and ends at midnight', () => {
    expect(splitDays('2026-01-01T00:00:00Z', '2026-01-03T00:00:00Z')).toEqual({ days: { from: '2026-01-01', to: '2026-01-03' }, edges: [] })
  })

  it('reads a microsecond after midnight as a partial day', () => {
    expect(splitDays('2026-01-01T00:00:00.000001Z', '2026-01-03T00:00:00.000001Z')).toEqual({
      days: { from: '2026-01-02', to: '2026-01-03' },
      edges: [
        { from: '2026-01-01T00:00:00.000001Z', to: '2026-01-02T00:00:00Z' },
        { from: '2026-01-03T00:00:00Z', to: '2026-01-03T00:00:00.000001Z' },
      ],
    })
  })

  it('converts offsets to UTC days', () => {
    expect(splitDays('2026-01-02T00:30:00+01:00', undefined)).toEqual({
      days: { from: '2026-01-02' },
      edges: [{ from: '2026-01-02T00:30:00+01:00', to: '2026-01-02T00:00:00Z' }],
    })
  })

  it('reads rows only within one day, and everything from rollups without a range', () => {
    expect(splitDays('2026-01-01T01:00:00Z', '2026-01-01T02:00:00Z')).toEqual({
      days: undefined,
      edges: [{ from: '2026-01-01T01:00:00Z', to: '2026-01-01T02:00:00Z' }],
    })
    expect(splitDays(undefined, undefined)).toEqual({ days: {}, edges: [] })
  })
})
