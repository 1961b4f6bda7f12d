// `pnpm devchain pay` against a real anvil with the test token: the command as one runs it from the
// repository's root, and its main() for the cases around it.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { type Address, encodeFunctionData, erc20Abi, type Hash } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_WALLET_INDEX, devAccount } from './accounts.ts'
import { type Anvil, startAnvil } from './anvil.ts'
import { main } from './cli.ts'
import { recordLocalChain } from './record.ts'
import { chainClients, deployToken } from './token.ts'

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const BUYER = devAccount(DEV_WALLET_INDEX).address
const MERCHANT = devAccount(2).address

let anvil: Anvil
let clients: ReturnType<typeof chainClients>
let token: Address
const dir = mkdtempSync(path.join(tmpdir(), 'till-devchain-'))

beforeAll(async () => {
  anvil = await startAnvil()
  clients = chainClients(anvil.url)
  token = await deployToken(anvil.url, 'USD Coin', 'USDC', [{ to: BUYER, amount: 1_000_000_000_000n }])
}, 60_000)
afterAll(async () => {
  await anvil?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const request = (amount: string, chainId = 31337, recipient: Address = MERCHANT) =>
  `ethereum:${token}@${chainId}/transfer?address=${recipient}&uint256=${amount}`
const balanceOf = (account: Address) =>
  clients.public.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] })

/** `pnpm devchain …` from the repository's root, as a person types it. */
async function pnpmDevchain(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('pnpm', ['--silent', 'devchain', ...args], { cwd: REPO_ROOT })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }
  }
}

/** main() with its output collected. */
async function run(args: string[], recordFile = path.join(dir, 'no-record.json')) {
  const out: string[] = []
  const err: string[] = []
  const code = await main(args, { stdout: (line) => out.push(line), stderr: (line) => err.push(line), recordFile })
  return { code, stdout: out.join('\n'), stderr: err.join('\n') }
}

describe('pnpm devchain pay', () => {
  it('pays the request with a plain transfer from the demo’s dev wallet: the recipient gets exactly the amount', async () => {
    const before = await balanceOf(MERCHANT)
    const paid = await pnpmDevchain(['pay', request('21673159'), '--rpc', anvil.url])
    expect(paid, paid.stderr).toMatchObject({ code: 0 })
    expect(await balanceOf(MERCHANT)).toBe(before + 21_673_159n)

    const hash = /transaction (0x[0-9a-f]{64})/.exec(paid.stdout)?.[1] as Hash
    const transaction = await clients.public.getTransaction({ hash })
    expect(paid.stdout).toContain(`paid in block ${transaction.blockNumber}`)
    // What a phone wallet sends: transfer(address, uint256) to the token, from the dev wallet, nothing more.
    expect(transaction).toMatchObject({ from: BUYER.toLowerCase(), to: token.toLowerCase(), value: 0n })
    expect(transaction.input).toBe(
      encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [MERCHANT, 21_673_159n] }).toLowerCase(),
    )
  })

  it('refuses a request for another chain, saying which, and sends nothing', async () => {
    const nonce = await clients.public.getTransactionCount({ address: BUYER })
    const refused = await pnpmDevchain(['pay', request('21673159', 1), '--rpc', anvil.url])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`the chain at ${anvil.url} is chain 31337, but the request is for chain 1: nothing sent`)
    expect(await clients.public.getTransactionCount({ address: BUYER })).toBe(nonce)
  })

  it('refuses a malformed request with exit code 2', async () => {
    const refused = await pnpmDevchain(['pay', request('2.5'), '--rpc', anvil.url])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('the amount "2.5" is not a whole number')
  })
})

describe('devchain pay', () => {
  it('pays on the chain the running demo recorded when no --rpc is given', async () => {
    const recordFile = path.join(dir, 'local-chain.json')
    const forget = recordLocalChain({ rpcUrl: anvil.url, chainId: 31337, usdc: token, devWallet: BUYER }, recordFile)
    try {
      const before = await balanceOf(MERCHANT)
      const paid = await run(['pay', request('2.5e1')], recordFile)
      expect(paid, paid.stderr).toMatchObject({ code: 0 })
      expect(paid.stdout).toContain(`through ${anvil.url} (the demo’s local chain)`)
      expect(await balanceOf(MERCHANT)).toBe(before + 25n)
    } finally {
      forget()
    }
  })

  it('pays from another dev account with --from, and says when it holds too little', async () => {
    const refused = await run(['pay', request('1'), '--rpc', anvil.url, '--from', '5'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`dev account 5 (${devAccount(5).address}) holds 0 of the token, less than the 1 asked: nothing sent`)
  })

  it('says when no chain answers', async () => {
    const refused = await run(['pay', request('1'), '--rpc', 'http://127.0.0.1:1'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('no chain answers at http://127.0.0.1:1')
  })

  it('says when the token is not a contract', async () => {
    const refused = await run(['pay', `ethereum:${MERCHANT}@31337/transfer?address=${BUYER}&uint256=1`, '--rpc', anvil.url])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`no contract at ${MERCHANT} on chain 31337`)
  })

  it.each([
    [[], 'no command'],
    [['send', request('1')], 'unknown command "send"'],
    [['pay'], 'pay needs the ethereum: URI'],
    [['pay', request('1'), 'extra'], 'one URI only'],
    [['pay', request('1'), '--from', 'one'], '--from "one" is not a dev account'],
    [['pay', request('1'), '--to', 'x'], "Unknown option '--to'"],
  ])('refuses %j with its usage and exit code 2', async (args, why) => {
    const refused = await run(args)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(why)
    expect(refused.stderr).toContain("Usage: pnpm devchain pay '<ethereum: URI>' [--rpc <url>] [--from <n>]")
  })
})
