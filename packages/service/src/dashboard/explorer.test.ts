import { describe, expect, it } from 'vitest'
import { explorerLinks } from './explorer.ts'

describe('explorerLinks', () => {
  const link = explorerLinks([
    { id: 'eip155:8453', explorerTxUrl: 'https://basescan.org/tx/{hash}' },
    { id: 'eip155:31337', explorerTxUrl: undefined },
  ])

  it('puts the hash where the network’s pattern says', () => {
    expect(link('eip155:8453', '0xab12')).toBe('https://basescan.org/tx/0xab12')
  })

  it('gives no link for a network without a pattern, or unknown', () => {
    expect([link('eip155:31337', '0xab12'), link('eip155:1', '0xab12')]).toEqual([null, null])
  })

  it('cannot be made to leave the pattern by what the hash holds', () => {
    expect(link('eip155:8453', '../../evil?x=1')).toBe('https://basescan.org/tx/..%2F..%2Fevil%3Fx%3D1')
  })
})
