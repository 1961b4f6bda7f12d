import { describe, expect, it } from 'vitest'
import { chainIdOf, Erc20AssetId, failsChecksum, normalizeAddress } from './ids.ts'

const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'

describe('normalizeAddress', () => {
  it('lower-cases checksummed, lower-case and upper-case hex alike', () => {
    const lower = USDC_BASE.toLowerCase()
    expect(normalizeAddress(USDC_BASE)).toBe(lower)
    expect(normalizeAddress(lower)).toBe(lower)
    expect(normalizeAddress(`0x${USDC_BASE.slice(2).toUpperCase()}`)).toBe(lower)
  })

  it('refuses a wrong length, a missing 0x and non-hex digits', () => {
    expect(normalizeAddress(USDC_BASE.slice(0, -1))).toBeUndefined()
    expect(normalizeAddress(`${USDC_BASE}0`)).toBeUndefined()
    expect(normalizeAddress(USDC_BASE.slice(2))).toBeUndefined()
    expect(normalizeAddress(`0x${'g'.repeat(40)}`)).toBeUndefined()
    expect(normalizeAddress(` ${USDC_BASE}`)).toBeUndefined()
  })

  it('checks the EIP-55 checksum of a mixed-case address, and only of one', () => {
    const flipped = USDC_BASE.replace('fCD6', 'fcD6')
    expect(failsChecksum(USDC_BASE)).toBe(false)
    expect(failsChecksum(flipped)).toBe(true)
    expect(normalizeAddress(flipped)).toBeUndefined()
    expect(failsChecksum(USDC_BASE.toLowerCase())).toBe(false)
    expect(failsChecksum(`0x${USDC_BASE.slice(2).toUpperCase()}`)).toBe(false)
  })
})

describe('chainIdOf', () => {
  it('reads the decimal chain id of an eip155 network', () => {
    expect(chainIdOf('eip155:1')).toBe(1)
    expect(chainIdOf('eip155:31337')).toBe(31337)
  })

  it('refuses other namespaces, leading zeros, zero and ids past 2^53', () => {
    for (const id of [
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      'eip155:08453',
      'eip155:0',
      'eip155:',
      'eip155:0x2105',
      'eip155:9007199254740993',
    ]) {
      expect(chainIdOf(id), id).toBeUndefined()
    }
  })
})

describe('Erc20AssetId', () => {
  it('splits a CAIP-19 ERC-20 id into network and lower-cased address', () => {
    expect(Erc20AssetId.parse(`eip155:8453/erc20:${USDC_BASE}`)).toEqual({
      id: `eip155:8453/erc20:${USDC_BASE.toLowerCase()}`,
      network: 'eip155:8453',
      address: USDC_BASE.toLowerCase(),
    })
  })

  it('says which part of the id is wrong', () => {
    const message = (id: unknown) => Erc20AssetId.safeParse(id).error?.issues[0]?.message
    expect(message('eip155:8453/slip44:60')).toMatch(
      /^must be a CAIP-19 ERC-20 asset id, eip155:<chain id>\/erc20:<contract address>, e\.g\. /,
    )
    expect(message(`eip155:0x2105/erc20:${USDC_BASE}`)).toMatch(
      /^its network eip155:0x2105 must be eip155:<chain id> with a decimal chain id/,
    )
    expect(message(`eip155:8453/erc20:${USDC_BASE.replace('fCD6', 'fcD6')}`)).toMatch(/^its contract address fails its EIP-55 checksum/)
    expect(message('eip155:8453/erc20:0x8335')).toMatch(/^its contract address must be 0x and 40 hex digits \(20 bytes\)/)
    expect(message(`eip155:8453/erc20:0x${'0'.repeat(40)}`)).toBe('its contract address is the zero address, which is no token contract')
    expect(message(undefined)).toMatch(/^is required; it must be a CAIP-19 ERC-20 asset id/)
    expect(message(8453)).toMatch(/^must be a CAIP-19 ERC-20 asset id/)
  })
})
