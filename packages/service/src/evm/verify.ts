import {
  type Address,
  decodeFunctionData,
  erc20Abi,
  type Hash,
  type Hex,
  isAddressEqual,
  parseEventLogs,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem'
import { carriesCall, transferCall } from './reference.ts'

/** What a payment expects of the buyer's transaction: the quoted token amount, from the connected account. */
export type TransferExpectation = {
  chainId: number
  token: Address
  /** Who must send it; undefined for a refund, which any wallet of the merchant's may pay. */
  from: Address | undefined
  to: Address
  /** Who `to` is, in a refusal's words: the merchant by default. */
  recipientName?: string
  amount: bigint
  /**
   * The payment's reference, which the transfer's calldata must end with (reference.ts); undefined for a
   * transfer matched by its unique exact amount (issue 23), which is checked by its Transfer log alone:
   * `from` is then the account the token moved from (a smart-contract wallet, maybe), not the signer.
   */
  reference: Hex | undefined
}

export type Mismatch = 'chain' | 'sender' | 'token' | 'recipient' | 'amount' | 'reference'

/** What the chain says of a transaction hash, checked against what the payment expects. */
export type TransferCheck =
  | { status: 'unknown' }
  | { status: 'refused'; mismatch: Mismatch; message: string }
  | { status: 'pending'; nonce: number }
  | { status: 'reverted'; blockNumber: bigint; confirmations: bigint; nonce: number }
  | { status: 'mined'; blockNumber: bigint; confirmations: bigint; nonce: number }

const refused = (mismatch: Mismatch, message: string): TransferCheck => ({ status: 'refused', mismatch, message })

/**
 * Reads the transaction from the chain and checks it is exactly the transfer the payment asked for: an
 * ERC-20 `transfer(to, amount)` of the configured token, sent by the connected account on the payment's
 * chain, carrying the payment's reference (so it was built for this payment, after it existed), and, once
 * mined, a successful one whose Transfer log says the same. Never trusts what the page says the transaction is, only what the network's RPC answers.
 */
export async function checkTransfer(client: PublicClient, hash: Hash, expected: TransferExpectation): Promise<TransferCheck> {
  let transaction: Awaited<ReturnType<PublicClient['getTransaction']>>
  try {
    transaction = await client.getTransaction({ hash })
  } catch (error) {
    if (error instanceof TransactionNotFoundError) return { status: 'unknown' }
    throw error
  }
  if (transaction.chainId !== undefined && transaction.chainId !== expected.chainId) {
    return refused('chain', `the transaction is on chain ${transaction.chainId}, not ${expected.chainId}`)
  }
  if (expected.reference === undefined) {
    // Matched by amount: whatever the transaction called, only what the token logged counts (below).
    if (transaction.blockNumber === null) return { status: 'pending', nonce: transaction.nonce }
    return minedCheck(client, hash, expected, transaction.nonce)
  }
  if (expected.from !== undefined && !isAddressEqual(transaction.from, expected.from)) {
    return refused('sender', `the transaction was sent by ${transaction.from}, not by the connected account ${expected.from}`)
  }
  if (!transaction.to || !isAddressEqual(transaction.to, expected.token)) {
    return refused('token', 'the transaction does not transfer the token of the chosen option')
  }
  let call: ReturnType<typeof decodeFunctionData<typeof erc20Abi>>
  try {
    call = decodeFunctionData({ abi: erc20Abi, data: transaction.input })
  } catch {
    return refused('token', 'the transaction is not an ERC-20 transfer')
  }
  if (call.functionName !== 'transfer') return refused('token', `the transaction calls ${call.functionName}, not transfer`)
  const [recipient, amount] = call.args
  if (!isAddressEqual(recipient, expected.to))
    return refused('recipient', `the transfer goes to ${recipient}, not to ${expected.recipientName ?? 'the merchant'}`)
  if (amount !== expected.amount)
    return refused('amount', `the transfer is of ${amount} units; the payment needs exactly ${expected.amount}`)
  if (!carriesCall(transaction.input, transferCall(recipient, amount, expected.reference))) {
    return refused('reference', "the transfer does not carry this payment's reference; sign the transfer its checkout page built")
  }
  if (transaction.blockNumber === null) return { status: 'pending', nonce: transaction.nonce }
  return minedCheck(client, hash, expected, transaction.nonce)
}

/** A mined transaction's receipt: reverted, or successful with the Transfer log the payment expects. */
async function minedCheck(client: PublicClient, hash: Hash, expected: TransferExpectation, nonce: number): Promise<TransferCheck> {
  let receipt: Awaited<ReturnType<PublicClient['getTransactionReceipt']>>
  try {
    receipt = await client.getTransactionReceipt({ hash })
  } catch (error) {
    // Mined a moment ago and reorganised away since: as if never seen.
    if (error instanceof TransactionReceiptNotFoundError) return { status: 'unknown' }
    throw error
  }
  const depth = async () => (await client.getBlockNumber({ cacheTime: 0 })) - receipt.blockNumber + 1n
  // A revert is as final as the block it is in: a reorg could still replace it with nothing at all.
  if (receipt.status === 'reverted') return { status: 'reverted', blockNumber: receipt.blockNumber, confirmations: await depth(), nonce }
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).filter(
    (log) =>
      isAddressEqual(log.address, expected.token) &&
      (expected.from === undefined || isAddressEqual(log.args.from, expected.from)) &&
      isAddressEqual(log.args.to, expected.to) &&
      log.args.value === expected.amount,
  )
  if (transfers.length === 0) return refused('token', 'the transaction succeeded but the token logged no such Transfer')
  return { status: 'mined', blockNumber: receipt.blockNumber, confirmations: await depth(), nonce }
}
