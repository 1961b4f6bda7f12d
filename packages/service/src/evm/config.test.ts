import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadEvmConfig, parseEvmConfig } from './config.ts'

const USDC = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const base = { id: 'eip155:8453', name: 'Base', rpcUrl: 'https://mainnet.base.org', confirmations: 3 }
const usdc = { id: USDC, symbol: 'USDC', name: 'USD Coin', decimals: 6, peg: 'USD' }
const valid = { networks: [base], tokens: [usdc] }

/** The lines of the ConfigError that parsing `json` throws. */
function problems(json: unknown): string[] {
  try {
    parseEvmConfig(json, 'config.json')
  } catch (error) {
    if (error instanceof ConfigError) return error.message.split('\n')
    throw error
  }
  throw new Error('the configuration was accepted')
}

describe('parseEvmConfig', () => {
  it('gives each network its chain id and each token its network and lower-cased address', () => {
    const config = parseEvmConfig(valid, 'config.json')
    expect(config.networks).toEqual([{ ...base, chainId: 8453, maxLogRange: 1000 }])
    expect(config.tokens).toEqual([
      { ...usdc, id: USDC.toLowerCase(), network: 'eip155:8453', address: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' },
    ])
    expect(config.rates).toEqual({ fixed: [] })
  })

  it("names a network Till knows when the file does not, and asks for any other network's name", () => {
    const { name: _, ...unnamed } = base
    expect(parseEvmConfig({ ...valid, networks: [unnamed] }, 'config.json').networks[0]?.name).toBe('Base')
    expect(problems({ networks: [{ ...unnamed, id: 'eip155:999' }], tokens: [{ ...usdc, id: USDC.replace('8453', '999') }] })).toEqual([
      'config.json: networks[0].name: is required for eip155:999, which Till does not know by name; give the name buyers see, e.g. "My chain"',
    ])
  })

  it('names each bad field with what a good value looks like, all at once', () => {
    const network = { id: 'base', rpcUrl: 'ws://127.0.0.1:8545', confirmations: 0 }
    const token = { id: USDC, symbol: 'US DC', name: '', decimals: 37, iconUrl: 'http://example.com/usdc.png', peg: 'usd' }
    expect(problems({ networks: [network], tokens: [token], rates: { fixed: [{ from: 'EUR', to: 'USDC', rate: 1.08 }] } })).toEqual([
      'config.json: networks[0].id: must be a CAIP-2 EVM network id, eip155:<chain id> with a decimal chain id, e.g. eip155:8453 for Base or eip155:31337 for a local anvil chain',
      'config.json: networks[0].rpcUrl: must be an http(s) URL, e.g. http://127.0.0.1:8545',
      'config.json: networks[0].confirmations: must be at least 1 (1 counts a payment as soon as its block is mined)',
      "config.json: tokens[0].symbol: must be the token's symbol, 1 to 16 characters without spaces, e.g. USDC",
      'config.json: tokens[0].name: must not be empty, e.g. "USD Coin"',
      'config.json: tokens[0].decimals: must be from 0 to 36',
      'config.json: tokens[0].iconUrl: must be an https:// URL, e.g. https://example.com/usdc.png',
      'config.json: tokens[0].peg: usd is not an ISO 4217 currency code; write an upper-case code such as USD or EUR',
      'config.json: rates.fixed[0].rate: must be a decimal string such as "1.0842", not a JSON number (a float loses digits)',
    ])
  })

  it('says a missing field is required, and what to put there', () => {
    expect(
      problems({ networks: [{ id: 'eip155:8453' }], tokens: [{ id: USDC, symbol: 'USDC', name: 'USD Coin', decimals: 6.5 }] }),
    ).toEqual([
      'config.json: networks[0].rpcUrl: is required; it must be an http(s) URL, e.g. http://127.0.0.1:8545',
      'config.json: networks[0].confirmations: is required; it must be a whole number of blocks from 1 to 1000 before a payment counts, e.g. 3',
      "config.json: tokens[0].decimals: must be a whole number from 0 to 36: what the token contract's decimals() answers, e.g. 6 for USDC",
    ])
  })

  it('takes an explorer’s transaction link with {hash} where the hash goes, and refuses one without', () => {
    const explorer = 'https://basescan.org/tx/{hash}'
    expect(parseEvmConfig({ ...valid, networks: [{ ...base, explorerTxUrl: explorer }] }, 'config.json').networks[0]?.explorerTxUrl).toBe(
      explorer,
    )
    expect(problems({ ...valid, networks: [{ ...base, explorerTxUrl: 'https://basescan.org/tx/' }] })).toEqual([
      'config.json: networks[0].explorerTxUrl: must be an http(s) URL with {hash} where the hash goes, e.g. "https://basescan.org/tx/{hash}"',
    ])
  })

  it('refuses unknown fields, naming the ones that exist', () => {
    expect(problems({ ...valid, networks: [{ ...base, confirmation: 3 }], extra: true })).toEqual([
      'config.json: networks[0]: unknown field "confirmation"; a network has id, name, rpcUrl, confirmations, maxLogRange, explorerTxUrl and devWallet',
      'config.json: unknown field "extra"; the EVM configuration has networks, tokens, rates and sandbox',
    ])
  })

  it('refuses an empty configuration and one that is not an object', () => {
    expect(problems({ networks: [], tokens: [] })).toEqual([
      'config.json: networks: must list at least one network, e.g. { "id": "eip155:31337", "rpcUrl": "http://127.0.0.1:8545", "confirmations": 1 }',
      'config.json: tokens: must list at least one token buyers may pay with',
    ])
    expect(problems([])).toEqual(['config.json: must be the EVM configuration: an object with networks, tokens, rates and sandbox'])
  })

  it('keeps decimals from 0 to 36 and rates with many decimals as written', () => {
    const tokens = [
      { ...usdc, decimals: 0, peg: undefined },
      { ...usdc, id: 'eip155:8453/erc20:0x50c5725949a6f0c72e6c4a641f24049a917db0cb', symbol: 'DAI', decimals: 36 },
    ]
    const rates = { fixed: [{ from: 'KWD', to: 'USDC', rate: '3.254372891044718203941' }], endpoint: 'https://rates.example.com/v1' }
    const config = parseEvmConfig({ networks: [base], tokens, rates }, 'config.json')
    expect(config.tokens.map((token) => token.decimals)).toEqual([0, 36])
    expect(config.rates).toEqual(rates)
  })
})

describe('loadEvmConfig', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-evm-config-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('reads the example configuration, a local anvil chain and Base', async () => {
    const config = await loadEvmConfig(fileURLToPath(new URL('./example-config.json', import.meta.url)))
    expect(config.networks.map((network) => [network.id, network.chainId, network.confirmations])).toEqual([
      ['eip155:31337', 31337, 1],
      ['eip155:8453', 8453, 3],
    ])
    expect(config.tokens.map((token) => `${token.symbol}@${token.network}`)).toEqual([
      'USDC@eip155:31337',
      'DAI@eip155:31337',
      'USDC@eip155:8453',
    ])
    expect(config.rates.fixed).toHaveLength(4)
  })

  it('names the file in each problem', async () => {
    const path = join(dir, 'bad.json')
    await writeFile(path, JSON.stringify({ ...valid, networks: [{ ...base, rpcUrl: 'base.org' }] }))
    await expect(loadEvmConfig(path)).rejects.toThrow(`${path}: networks[0].rpcUrl: must be an http(s) URL, e.g. http://127.0.0.1:8545`)
  })

  it('refuses a file that is not JSON, and one that is not there', async () => {
    const path = join(dir, 'comments.json')
    await writeFile(path, '{ // Base\n "networks": [] }')
    await expect(loadEvmConfig(path)).rejects.toThrow(
      new RegExp(`^${path}: is not valid JSON \\(.+\\); comments and trailing commas are not allowed$`),
    )
    const missing = join(dir, 'missing.json')
    await expect(loadEvmConfig(missing)).rejects.toThrow(`${missing}: cannot be read (ENOENT); check the path given to --config`)
    await expect(loadEvmConfig(missing)).rejects.toBeInstanceOf(ConfigError)
  })
})

describe('docs/operating.md’s example configuration', () => {
  it('is a configuration Till accepts', () => {
    const guide = readFileSync(new URL('../../../../docs/operating.md', import.meta.url), 'utf8')
    const section = guide.slice(guide.indexOf('## Real payments on EVM chains'))
    const json = /```json\n([\s\S]*?)```/.exec(section)?.[1]
    expect(json).toBeDefined()
    const config = parseEvmConfig(JSON.parse(json ?? ''), 'docs/operating.md')
    expect(config.networks.map((network) => network.name)).toEqual(['Base'])
    expect(config.rates.endpoint).toBe('https://rates.example.com/v1/rates')
  })
})
