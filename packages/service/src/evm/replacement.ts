import { type Address, type Hash, isAddressEqual, type PublicClient } from 'viem'

// A replacement is mined soon after the transaction it replaces; looking further back costs a request a block.
const MAX_BLOCKS_SCANNED = 256n

export type Replacement = { status: 'unused' } | { status: 'found'; hash: Hash } | { status: 'not_found' }

/**
 * Whether the sender's nonce has been used by a mined transaction, and which one: a wallet's "speed up"
 * or "cancel" sends a new transaction with the same nonce, so the watched hash never gets mined while
 * the nonce does. Searched from `fromBlock` (the height at submission), at most the last 256 blocks.
 */
export async function replacementOf(
  client: PublicClient,
  input: { sender: Address; nonce: number; fromBlock: bigint },
): Promise<Replacement> {
  const used = await client.getTransactionCount({ address: input.sender, blockTag: 'latest' })
  if (used <= input.nonce) return { status: 'unused' }
  const latest = await client.getBlockNumber({ cacheTime: 0 })
  const oldest = latest - MAX_BLOCKS_SCANNED + 1n
  for (let number = latest; number >= input.fromBlock && number >= oldest && number >= 0n; number--) {
    const block = await client.getBlock({ blockNumber: number, includeTransactions: true })
    const found = block.transactions.find((tx) => tx.nonce === input.nonce && isAddressEqual(tx.from, input.sender))
    if (found) return { status: 'found', hash: found.hash }
  }
  return { status: 'not_found' }
}
