// The test ERC-20, compiled with solc-js once per process and deployed with viem as dev account 0.
import { readFileSync } from 'node:fs'
import solc from 'solc'
import { type Abi, type Address, createPublicClient, createTestClient, createWalletClient, type Hex, http } from 'viem'
import { foundry } from 'viem/chains'
import { devAccount } from './accounts.ts'

type Artifact = { abi: Abi; bytecode: Hex }
let compiled: Artifact | undefined

/** TestToken.sol, compiled once per process (solc-js takes a couple of seconds). */
export function testTokenArtifact(): Artifact {
  if (compiled) return compiled
  const source = readFileSync(new URL('./TestToken.sol', import.meta.url), 'utf8')
  const input = {
    language: 'Solidity',
    sources: { 'TestToken.sol': { content: source } },
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[]
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
  }
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'))
  const contract = output.contracts['TestToken.sol']?.TestToken
  if (!contract) throw new Error('solc produced no TestToken')
  compiled = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
  return compiled
}

/** Clients on the local chain; polling and caching made short, as a local chain mines at once. */
export function chainClients(url: string) {
  const transport = http(url)
  return {
    public: createPublicClient({ chain: foundry, transport, pollingInterval: 50, cacheTime: 0 }),
    wallet: createWalletClient({ chain: foundry, transport, pollingInterval: 50, cacheTime: 0 }),
    test: createTestClient({ chain: foundry, mode: 'anvil', transport, pollingInterval: 50, cacheTime: 0 }),
  }
}

/** Deploys a test token as dev account 0, and mints `mint` to each account given. */
export async function deployToken(url: string, name: string, symbol: string, mint: { to: Address; amount: bigint }[]): Promise<Address> {
  const { abi, bytecode } = testTokenArtifact()
  const clients = chainClients(url)
  const owner = devAccount(0)
  const hash = await clients.wallet.deployContract({ abi, bytecode, account: owner, args: [name, symbol] })
  const { contractAddress } = await clients.public.waitForTransactionReceipt({ hash })
  if (!contractAddress) throw new Error('the token was not deployed')
  for (const { to, amount } of mint) {
    const minted = await clients.wallet.writeContract({
      address: contractAddress,
      abi,
      functionName: 'mint',
      args: [to, amount],
      account: owner,
    })
    await clients.public.waitForTransactionReceipt({ hash: minted })
  }
  return contractAddress
}
