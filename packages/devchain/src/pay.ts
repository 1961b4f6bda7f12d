// Pays an ERC-20 payment request from one of anvil's dev accounts, as a phone wallet pays the one it scans:
// a plain `transfer(address, uint256)` to the token, signed with the account's key, nothing else in the call.
import { type Address, createPublicClient, createWalletClient, defineChain, erc20Abi, type Hash, http } from 'viem'
import type { PaymentRequest } from './payment-request.ts'
import { devAccount } from './accounts.ts'

/** The chain refused or could not be asked: nothing was sent, or what was sent failed. */
export class ChainError extends Error {
  override name = 'ChainError'
}

export type Paid = { from: Address; hash: Hash; blockNumber: bigint }

export async function payRequest(
  request: PaymentRequest,
  options: { rpcUrl: string; from: number; onSent?: (hash: Hash) => void },
): Promise<Paid> {
  const account = devAccount(options.from)
  const chain = defineChain({
    id: request.chainId,
    name: `chain ${request.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  })
  const transport = http(options.rpcUrl, { retryCount: 0 })
  const client = createPublicClient({ chain, transport, pollingInterval: 100, cacheTime: 0 })
  const wallet = createWalletClient({ chain, transport, account })

  let chainId: number
  try {
    chainId = await client.getChainId()
  } catch (error) {
    throw new ChainError(`no chain answers at ${options.rpcUrl} (${describe(error)})`)
  }
  if (chainId !== request.chainId)
    throw new ChainError(
      `the chain at ${options.rpcUrl} is chain ${chainId}, but the request is for chain ${request.chainId}: nothing sent`,
    )
  try {
    if (!(await client.getCode({ address: request.token })))
      throw new ChainError(`no contract at ${request.token} on chain ${chainId}: nothing sent`)
    const balance = await client.readContract({
      address: request.token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [account.address],
    })
    if (balance < request.amount)
      throw new ChainError(
        `dev account ${options.from} (${account.address}) holds ${balance} of the token, less than the ${request.amount} asked: nothing sent`,
      )
    const hash = await wallet.writeContract({
      address: request.token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [request.recipient, request.amount],
    })
    options.onSent?.(hash)
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: 120_000 })
    if (receipt.status !== 'success') throw new ChainError(`transaction ${hash} failed (reverted) in block ${receipt.blockNumber}`)
    return { from: account.address, hash, blockNumber: receipt.blockNumber }
  } catch (error) {
    throw error instanceof ChainError ? error : new ChainError(describe(error))
  }
}

/** viem's one-line message, and what the node said. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const { shortMessage, details } = error as Error & { shortMessage?: string; details?: string }
  return [shortMessage ?? error.message, details].filter(Boolean).join(' ')
}
