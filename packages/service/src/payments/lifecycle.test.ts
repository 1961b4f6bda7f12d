import { describe, expect, it } from 'vitest'
import { canTransition } from '@till/contract'
import { pathBetween, sourcesOf } from './lifecycle.ts'

describe('the transition rule', () => {
  it('allows exactly the spec’s moves', () => {
    const allowed = (['pending', 'processing', 'succeeded', 'failed', 'expired'] as const).flatMap((from) =>
      (['pending', 'processing', 'succeeded', 'failed', 'expired'] as const)
        .filter((to) => canTransition(from, to))
        .map((to) => `${from}→${to}`),
    )
    expect(allowed.sort()).toEqual(
      ['pending→processing', 'pending→failed', 'pending→expired', 'processing→succeeded', 'processing→failed'].sort(),
    )
  })

  it('knows where each state comes from', () => {
    expect(sourcesOf('failed').sort()).toEqual(['pending', 'processing'])
    expect(sourcesOf('pending')).toEqual([])
  })

  it('plans the shortest legal walk', () => {
    expect(pathBetween('pending', 'succeeded')).toEqual(['processing', 'succeeded'])
    expect(pathBetween('pending', 'failed')).toEqual(['failed'])
    expect(pathBetween('processing', 'expired')).toBeUndefined()
    expect(pathBetween('succeeded', 'failed')).toBeUndefined()
    expect(pathBetween('pending', 'pending')).toBeUndefined()
  })
})
