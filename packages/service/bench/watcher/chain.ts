// The watcher bench's chain side: anvil with the USDC test token held by its unlocked dev accounts, and a
// fast way to put many ERC-20 transfers on it, each in a block of its own.
import { type Anvil, chainClients, deployToken, devAccount, startAnvil } from '@till/devchain'
import { type Address, encodeFunctionData, erc20Abi, type Hex, toHex } from 'viem'
import { parseEvmConfig, type EvmConfig } from '../../src/evm/config.ts'
import { transferCall } from '../../src/evm/reference.ts'

export const NETWORK = 'eip155:31337'
/** anvil's unlocked dev accounts send the transfers (it signs for them: no signing in the bench). */
export const SENDERS = Array.from({ length: 10 }, (_, index) => devAccount(index).address)
/**
 * What one transfer may burn. anvil packs a transaction while the gas its block has used plus the
 * transaction's limit fits the block's limit: a transfer uses 30,000 to 55,000, so with these two a block
 * holds one transfer and never two. Under half full, the base fee falls.
 */
const TRANSFER_GAS = 100_000n
const ONE_TRANSFER_BLOCK_GAS = 120_000n

export type BenchChain = { anvil: Anvil; token: Address; config: EvmConfig; rpc: Rpc; stop(): Promise<void> }

export type Rpc = <T = unknown>(method: string, params?: unknown[]) => Promise<T>

/** A bare JSON-RPC caller (no viem in the way): what sending thousands of transactions needs. */
export function jsonRpc(url: string) {
  let id = 0
  const post = async (body: unknown) => {
    const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return answer.json() as Promise<unknown>
  }
  const call: Rpc = async <T>(method: string, params: unknown[] = []) => {
    const answer = (await post({ jsonrpc: '2.0', id: ++id, method, params })) as { result?: T; error?: unknown }
    if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`)
    return answer.result as T
  }
  const batch = async (calls: { method: string; params: unknown[] }[]) => {
    const answers = (await post(calls.map((one) => ({ jsonrpc: '2.0', id: ++id, ...one })))) as { result?: unknown; error?: unknown }[]
    const failed = answers.find((answer) => answer.error)
    if (failed) throw new Error(`batch: ${JSON.stringify(failed.error)}`)
    return answers.map((answer) => answer.result)
  }
  return { call, batch }
}

/** anvil and the token (every sender holds plenty), with the configuration of a network reading it `maxLogRange` blocks at a time. */
export async function benchChain(options: { blockTimeSeconds?: number; maxLogRange: number }): Promise<BenchChain> {
  // No past states kept: anvil mines each of thousands of blocks faster, and the watcher reads only blocks,
  // transactions and logs.
  const anvil = await startAnvil({
    pruneHistory: true,
    ...(options.blockTimeSeconds ? { blockTimeSeconds: options.blockTimeSeconds } : {}),
  })
  try {
    const token = await deployToken(
      anvil.url,
      'USD Coin',
      'USDC',
      SENDERS.map((to) => ({ to, amount: 10n ** 15n })),
    )
    const config = parseEvmConfig(
      {
        networks: [{ id: NETWORK, rpcUrl: anvil.url, confirmations: 1, maxLogRange: options.maxLogRange }],
        tokens: [{ id: `${NETWORK}/erc20:${token}`, symbol: 'USDC', name: 'USD Coin', decimals: 6, peg: 'USD' }],
        rates: { fixed: [{ from: 'EUR', to: 'USDC', rate: '1.0842' }] },
      },
      'bench',
    )
    return { anvil, token, config, rpc: jsonRpc(anvil.url).call, stop: () => anvil.stop() }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}

export type PlannedTransfer = { to: Address; amount: bigint; reference?: Hex }

/** The calldata of a transfer: a wallet's bare transfer, or the checkout page's with the payment's reference. */
export const calldata = (transfer: PlannedTransfer): Hex =>
  transfer.reference
    ? transferCall(transfer.to, transfer.amount, transfer.reference)
    : encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [transfer.to, transfer.amount] })

/**
 * Puts `transfers` on chain in order, one per block, and answers their hashes and the first block.
 * anvil's automine packs transactions that arrive together into one block, so mining is switched to
 * explicit: a block gas limit with room for one transfer, `chunk` transactions sent in one JSON-RPC batch
 * (explicit nonce, gas and fees: no estimate round trip), then `anvil_mine` of as many blocks.
 */
export async function sendOnePerBlock(
  chain: BenchChain,
  transfers: readonly PlannedTransfer[],
  chunk = 500,
): Promise<{ hashes: string[]; firstBlock: bigint; lastBlock: bigint }> {
  const { call, batch } = jsonRpc(chain.anvil.url)
  await call('evm_setAutomine', [false])
  await call('evm_setBlockGasLimit', [toHex(ONE_TRANSFER_BLOCK_GAS)])
  // An empty block first, so the new gas limit holds from the first transfer's block on.
  await call('anvil_mine', ['0x1'])
  const firstBlock = BigInt(await call<string>('eth_blockNumber')) + 1n
  const nonces = await Promise.all(
    SENDERS.map(async (sender) => BigInt(await call<string>('eth_getTransactionCount', [sender, 'pending']))),
  )
  const hashes: string[] = []
  for (let start = 0; start < transfers.length; start += chunk) {
    const calls = transfers.slice(start, start + chunk).map((transfer, offset) => {
      const sender = (start + offset) % SENDERS.length
      const nonce = nonces[sender] ?? 0n
      nonces[sender] = nonce + 1n
      return {
        method: 'eth_sendTransaction',
        params: [
          {
            from: SENDERS[sender],
            to: chain.token,
            data: calldata(transfer),
            gas: toHex(TRANSFER_GAS),
            maxFeePerGas: toHex(10_000_000_000n),
            maxPriorityFeePerGas: '0x1',
            nonce: toHex(nonce),
          },
        ],
      }
    })
    hashes.push(...((await batch(calls)) as string[]).map((hash) => hash.toLowerCase()))
    await call('anvil_mine', [toHex(calls.length)])
  }
  const lastBlock = BigInt(await call<string>('eth_blockNumber'))
  // The last one mined means all are: each sender's nonces are consecutive, one per block.
  const receipt = await call<{ status: string; blockNumber: string } | null>('eth_getTransactionReceipt', [hashes.at(-1)])
  if (receipt?.status !== '0x1') throw new Error('the last transfer was not mined, or reverted')
  await call('evm_setAutomine', [true])
  return { hashes, firstBlock, lastBlock }
}

export { chainClients }
