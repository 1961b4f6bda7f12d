import { describe, expect, it } from 'vitest'
import { ConfigError, parseEvmConfig } from './config.ts'

const ANVIL_USDC = 'eip155:31337/erc20:0x5fbdb2315678afecb367f032d93f642f64180aa3'
const ANVIL_DAI = 'eip155:31337/erc20:0xe7f1725e7734ce288f8367e1bb143e90bb3f0512'
const BASE_USDC = 'eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
const anvil = { id: 'eip155:31337', rpcUrl: 'http://127.0.0.1:8545', confirmations: 1 }
const base = { id: 'eip155:8453', rpcUrl: 'https://mainnet.base.org', confirmations: 3 }
const usdc = (id: string) => ({ id, symbol: 'USDC', name: 'USD Coin', decimals: 6, peg: 'USD' })
const dai = { id: ANVIL_DAI, symbol: 'DAI', name: 'Dai', decimals: 18 }

function problems(json: unknown): string[] {
  try {
    parseEvmConfig(json, 'till.json')
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map(({ path, message }) => `${path}: ${message}`)
    throw error
  }
  throw new Error('the configuration was accepted')
}

describe('the rules across fields of the EVM configuration', () => {
  it('accepts one symbol on several networks, agreeing on its peg', () => {
    const config = parseEvmConfig({ networks: [anvil, base], tokens: [usdc(ANVIL_USDC), usdc(BASE_USDC), dai] }, 'till.json')
    expect(config.tokens.map((token) => token.id)).toEqual([ANVIL_USDC, BASE_USDC, ANVIL_DAI])
  })

  it('takes a dev wallet on a local chain of a sandbox configuration only', () => {
    const dev = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const local = parseEvmConfig({ sandbox: true, networks: [{ ...anvil, devWallet: dev }], tokens: [usdc(ANVIL_USDC)] }, 'till.json')
    expect(local.networks[0]?.devWallet).toBe(dev.toLowerCase())
    expect(problems({ networks: [{ ...anvil, devWallet: dev }], tokens: [usdc(ANVIL_USDC)] })).toEqual([
      'networks[0].devWallet: needs "sandbox": true at the top level: a dev wallet pays only sandbox partners\' payments',
    ])
    expect(problems({ sandbox: true, networks: [{ ...base, devWallet: dev }], tokens: [usdc(BASE_USDC)] })).toEqual([
      'networks[0].devWallet: is only for a local development chain (eip155:31337 or eip155:1337), not eip155:8453',
    ])
    const remote = { ...anvil, rpcUrl: 'https://rpc.example.com', devWallet: dev }
    expect(problems({ sandbox: true, networks: [remote], tokens: [usdc(ANVIL_USDC)] })).toEqual([
      'networks[0].devWallet: is only for a chain on this machine: its rpcUrl must be on 127.0.0.1 or localhost, not https://rpc.example.com',
    ])
    expect(
      problems({ sandbox: true, networks: [{ ...anvil, devWallet: dev.toLowerCase().replace('c8', 'C8') }], tokens: [usdc(ANVIL_USDC)] }),
    ).toEqual(['networks[0].devWallet: must be an address, 0x and 40 hex digits with a valid EIP-55 checksum'])
  })

  it('refuses a network listed twice', () => {
    expect(problems({ networks: [base, anvil, { ...base, name: 'Base again' }], tokens: [usdc(BASE_USDC)] })).toEqual([
      'networks[2].id: eip155:8453 is already networks[0]; list each network once',
    ])
  })

  it('refuses a token on a network that is not configured, listing those that are', () => {
    expect(problems({ networks: [anvil], tokens: [usdc(BASE_USDC)] })).toEqual([
      'tokens[0].id: its network eip155:8453 is not under networks; add it there or correct the chain id (configured: eip155:31337)',
    ])
  })

  it('refuses a token listed twice, however its address is spelt', () => {
    const checksummed = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
    expect(problems({ networks: [base], tokens: [usdc(BASE_USDC), usdc(checksummed)] })).toEqual([
      'tokens[1].id: is the same token as tokens[0]; list each token once',
    ])
  })

  it('refuses two tokens with one symbol on one network', () => {
    expect(problems({ networks: [anvil], tokens: [usdc(ANVIL_USDC), usdc(ANVIL_DAI)] })).toEqual([
      'tokens[1].symbol: tokens[0] is already USDC on eip155:31337; a symbol names one token per network',
    ])
  })

  it('refuses one symbol with two pegs, because rates name tokens by symbol', () => {
    expect(problems({ networks: [anvil, base], tokens: [usdc(ANVIL_USDC), { ...usdc(BASE_USDC), peg: 'EUR' }] })).toEqual([
      'tokens[1].peg: USDC is pegged to USD in tokens[0]; give every USDC the same peg',
    ])
    expect(problems({ networks: [anvil, base], tokens: [{ ...usdc(ANVIL_USDC), peg: undefined }, usdc(BASE_USDC)] })).toEqual([
      'tokens[1].peg: USDC is not pegged in tokens[0]; give every USDC the same peg',
    ])
  })

  it('refuses a rate for a token that is not configured, naming those that are', () => {
    const rates = { fixed: [{ from: 'EUR', to: 'USDT', rate: '1.08' }] }
    expect(problems({ networks: [anvil], tokens: [usdc(ANVIL_USDC), dai], rates })).toEqual([
      'rates.fixed[0].to: no token has the symbol USDT; use one of USDC, DAI, or list the token under tokens',
    ])
  })

  it('refuses a second rate for one pair, and a rate that contradicts a peg', () => {
    const fixed = [
      { from: 'EUR', to: 'USDC', rate: '1.08' },
      { from: 'USD', to: 'USDC', rate: '0.999' },
      { from: 'EUR', to: 'USDC', rate: '1.09' },
    ]
    expect(problems({ networks: [anvil], tokens: [usdc(ANVIL_USDC)], rates: { fixed } })).toEqual([
      "rates.fixed[1]: USDC is pegged to USD (1:1); remove this rate or the token's peg",
      'rates.fixed[2]: EUR to USDC is already rates.fixed[0]; give each pair one rate',
    ])
  })

  it('waits for every field to be right before checking across them', () => {
    // With the token's decimals wrong, a half-built token must not also be reported as on an unknown network.
    expect(problems({ networks: [anvil], tokens: [{ ...usdc(ANVIL_USDC), decimals: -1 }] })).toEqual([
      'tokens[0].decimals: must be from 0 to 36',
    ])
  })
})
