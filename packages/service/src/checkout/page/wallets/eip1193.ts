import type { Eip1193Provider } from './discovery.ts'
import { type Address, isAddress } from './transfer-call.ts'

// The four EIP-1193 requests the page makes, each checking what the wallet answers: a wallet is the
// buyer's, but a broken or hostile one must not make the page post something malformed or misleading.

/** Why a wallet request did not give the page what it asked for, in the words the page has for it. */
export type WalletFailure = 'declined' | 'unknownChain' | 'busy' | 'failed'

// EIP-1193: the user rejected the request. EIP-3326: the wallet does not know the chain. JSON-RPC
// "resource unavailable", which wallets answer while an earlier request of the same kind is still open.
const USER_REJECTED = 4001
const UNRECOGNIZED_CHAIN = 4902
const REQUEST_PENDING = -32002

const codeOf = (value: unknown): unknown => (typeof value === 'object' && value !== null ? (value as { code?: unknown }).code : undefined)

export function walletFailure(error: unknown): WalletFailure {
  // Some mobile wallets wrap the provider error: `{ data: { originalError: { code } } }`.
  const data = typeof error === 'object' && error !== null ? (error as { data?: { originalError?: unknown } }).data : undefined
  const codes = [codeOf(error), codeOf(data?.originalError)]
  if (codes.includes(USER_REJECTED)) return 'declined'
  if (codes.includes(UNRECOGNIZED_CHAIN)) return 'unknownChain'
  if (codes.includes(REQUEST_PENDING)) return 'busy'
  return 'failed'
}

/** Thrown when a wallet answers a request with something that request cannot answer. */
export class WalletAnswerError extends Error {
  constructor(method: string) {
    super(`the wallet answered ${method} with something unexpected`)
    this.name = 'WalletAnswerError'
  }
}

const toHexQuantity = (value: number | bigint) => `0x${value.toString(16)}`

/** Connects: the wallet asks the buyer which account this page may see, and the page takes the first. */
export async function requestAccount(provider: Eip1193Provider): Promise<Address> {
  const accounts = await provider.request({ method: 'eth_requestAccounts' })
  const first: unknown = Array.isArray(accounts) ? accounts[0] : undefined
  if (!isAddress(first)) throw new WalletAnswerError('eth_requestAccounts')
  return first
}

export async function chainIdOf(provider: Eip1193Provider): Promise<number> {
  const answer = await provider.request({ method: 'eth_chainId' })
  if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]{1,14}$/.test(answer)) throw new WalletAnswerError('eth_chainId')
  return Number.parseInt(answer, 16)
}

/** EIP-3326. Some wallets answer before they have switched, so the chain is read back before signing. */
export async function switchChain(provider: Eip1193Provider, chainId: number): Promise<void> {
  await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: toHexQuantity(chainId) }] })
  if ((await chainIdOf(provider)) !== chainId) throw new WalletAnswerError('wallet_switchEthereumChain')
}

export type Transaction = { chainId: number; from: Address; to: Address; data: `0x${string}` }

/**
 * Asks the wallet to sign and send a contract call that moves no ether. `chainId` goes with it so a wallet
 * that switched network behind the page's back refuses rather than sending on the wrong chain.
 */
export async function sendTransaction(provider: Eip1193Provider, transaction: Transaction): Promise<`0x${string}`> {
  const hash = await provider.request({
    method: 'eth_sendTransaction',
    params: [{ ...transaction, chainId: toHexQuantity(transaction.chainId), value: '0x0' }],
  })
  if (typeof hash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(hash)) throw new WalletAnswerError('eth_sendTransaction')
  return hash as `0x${string}`
}
