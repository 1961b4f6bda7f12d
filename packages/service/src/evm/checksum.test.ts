import { checksumAddress as viemChecksum } from 'viem'
import { describe, expect, it } from 'vitest'
import { checksumAddress } from './checksum.ts'

// EIP-55's own test vectors, and agreement with viem on addresses of every case.
const VECTORS = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  '0xde709f2102306220921060314715629080e2fb77',
  '0x27b1fdb04752bbc536007a920d24acb045561c26',
]

describe('checksumAddress', () => {
  it.each(VECTORS)('gives %s its EIP-55 form from any case', (address) => {
    expect(checksumAddress(address.toLowerCase())).toBe(address)
    expect(checksumAddress(address.toUpperCase().replace('0X', '0x'))).toBe(address)
  })

  it('agrees with viem on addresses of every kind', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const hex = `0x${(BigInt(seed) * 0x9e3779b97f4a7c15n).toString(16).padStart(40, 'f').slice(-40)}`
      expect(checksumAddress(hex)).toBe(viemChecksum(hex as `0x${string}`))
    }
  })
})
