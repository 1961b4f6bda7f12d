import { describe, expect, it } from 'vitest'
import { Caip10, Caip19, Caip2, TokenUnit } from './caip.ts'

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) => schema.safeParse(value).success

describe('Caip2', () => {
  it.each([
    'eip155:1',
    'eip155:137',
    'bip122:000000000019d6689c085ae165831e93',
    'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    'cosmos:cosmoshub-4',
    'abc:_-x',
  ])('accepts %s', (v) => expect(ok(Caip2, v)).toBe(true))
  it.each([
    'eip155',
    'ei:1',
    'eip155155:1',
    'EIP155:1',
    'eip155:',
    'eip155:1:0xabc',
    `eip155:${'1'.repeat(33)}`,
    'eip 155:1',
    'eip155:1/erc20:0xabc',
    '',
    1,
  ])('refuses %j', (v) => expect(ok(Caip2, v)).toBe(false))

  it('accepts the longest namespace and reference', () => {
    expect(ok(Caip2, `abcdefgh:${'a'.repeat(32)}`)).toBe(true)
  })
})

describe('Caip10', () => {
  it.each([
    'eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb',
    'bip122:000000000019d6689c085ae165831e93:128Lkh3S7CkDTBZ8W7BbpsN3YYizJMp8p6',
    'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv',
    'eip155:1:a.b%20c-d',
  ])('accepts %s', (v) => expect(ok(Caip10, v)).toBe(true))
  it.each(['eip155:1', 'eip155:1:', `eip155:1:${'a'.repeat(129)}`, 'eip155:1:0x/abc', 'EIP155:1:0xabc', 'eip155:1:0x abc'])(
    'refuses %j',
    (v) => expect(ok(Caip10, v)).toBe(false),
  )
})

describe('Caip19', () => {
  it.each([
    'eip155:1/slip44:60',
    'eip155:1/erc20:0x6b175474e89094c44da98b954eedeac495271d0f',
    'eip155:1/erc721:0x06012c8cf97BEaD5deAe237070F9587f8E7A266d/771769',
    'cosmos:cosmoshub-3/slip44:118',
    'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp/token:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    `eip155:1/erc721:0xabc/${'9'.repeat(78)}`,
  ])('accepts %s', (v) => expect(ok(Caip19, v)).toBe(true))
  it.each([
    'eip155:1',
    'eip155:1/erc20',
    'eip155:1/ERC20:0xabc',
    'eip155:1/er:0xabc',
    'eip155:1/erc20:0xabc/1/2',
    `eip155:1/erc721:0xabc/${'9'.repeat(79)}`,
    'caip19/eip155:1/slip44:60',
    'USDC',
  ])('refuses %j', (v) => expect(ok(Caip19, v)).toBe(false))
})

describe('TokenUnit', () => {
  it('is caip19/ followed by a CAIP-19 id', () => {
    expect(ok(TokenUnit, 'caip19/eip155:1/slip44:60')).toBe(true)
    expect(ok(TokenUnit, 'caip19/eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913')).toBe(true)
  })
  it.each(['eip155:1/slip44:60', 'caip19/', 'caip19/eip155:1', 'CAIP19/eip155:1/slip44:60', 'iso4217/USD', 'caip19/eip155:1/slip44:60 '])(
    'refuses %j',
    (v) => expect(ok(TokenUnit, v)).toBe(false),
  )
})
