import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startAnvil, type Anvil } from '@till/devchain'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runTill } from './till-process.test-helper.ts'

// `till serve --config FILE`: the operator's EVM configuration is checked before anything starts.
let dir: string
let anvil: Anvil
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'till-config-'))
  // As root, Till runs PostgreSQL as the user postgres, who must reach the data directory inside.
  await chmod(dir, 0o755)
  anvil = await startAnvil()
})
afterAll(async () => {
  await anvil?.stop()
  await rm(dir, { recursive: true, force: true })
})

async function configFile(name: string, json: unknown): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, typeof json === 'string' ? json : JSON.stringify(json))
  return path
}

const token = {
  id: 'eip155:31337/erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3',
  symbol: 'USDC',
  name: 'USD Coin',
  decimals: 6,
  peg: 'USD',
}

describe('till serve --config', () => {
  it('stops with exit 2 on a bad field, naming the file, the field and a fix', async () => {
    const path = await configFile('bad.json', { networks: [{ id: 'eip155:31337', rpcUrl: 'ftp://x', confirmations: 0 }], tokens: [token] })
    const { code, stderr } = await runTill(['serve', '--config', path, '--data-dir', join(dir, 'data')])
    expect(code).toBe(2)
    expect(stderr).toContain(`${path}: networks[0].rpcUrl: must be an http(s) URL`)
    expect(stderr).toContain(`${path}: networks[0].confirmations: must be at least 1`)
  })

  it('stops with exit 2 on a file that is not there', async () => {
    const { code, stderr } = await runTill(['serve', '--config', join(dir, 'missing.json'), '--data-dir', join(dir, 'data')])
    expect(code).toBe(2)
    expect(stderr).toMatch(/missing\.json: cannot be read \(ENOENT\); check the path given to --config/)
  })

  it('stops with exit 2 when a network’s RPC serves another chain', async () => {
    const path = await configFile('wrong-chain.json', {
      networks: [{ id: 'eip155:8453', rpcUrl: anvil.url, confirmations: 3 }],
      tokens: [{ ...token, id: 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' }],
    })
    const { code, stderr } = await runTill(['serve', '--config', path, '--data-dir', join(dir, 'data'), '--port', '0'])
    expect(code, stderr).toBe(2)
    expect(stderr).toContain(`eip155:8453: its rpcUrl ${anvil.url} serves chain 31337, not 8453`)
  })
})
