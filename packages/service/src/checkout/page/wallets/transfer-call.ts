import type { PaymentOption } from '@till/contract'

// The one call the page ever asks a wallet to sign: ERC-20 `transfer(to, amount)`. Encoded by hand because
// it is a fixed layout of 68 bytes; an ABI library would weigh more than the rest of the wallet code.

/** The first four bytes of keccak256("transfer(address,uint256)"). */
const TRANSFER_SELECTOR = 'a9059cbb'
const MAX_UINT256 = 2n ** 256n - 1n

export type Address = `0x${string}`

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

export const isAddress = (value: unknown): value is Address => typeof value === 'string' && ADDRESS.test(value)

/** The calldata of `transfer(to, amount)`: the selector, then each argument as one 32-byte word. */
export function transferCall(to: Address, amount: bigint): `0x${string}` {
  if (!isAddress(to)) throw new RangeError(`not an address: ${to}`)
  if (amount < 0n || amount > MAX_UINT256) throw new RangeError(`not a uint256: ${amount}`)
  const word = (hex: string) => hex.padStart(64, '0')
  return `0x${TRANSFER_SELECTOR}${word(to.slice(2).toLowerCase())}${word(amount.toString(16))}`
}

/** What the wallet is asked to send for one payment option: which chain, which token contract, what calldata. */
export type TransferRequest = {
  chainId: number
  token: Address
  data: `0x${string}`
}

/**
 * Till may build the call itself, with the payment's reference appended after the two words (ERC-20
 * contracts ignore trailing calldata); the page then sends that, but only once it has checked that it is
 * the very transfer it shows the buyer.
 */
type BuiltTransfer = { to: string; data: string }

/** A reference longer than one word is not a reference. */
const MAX_SUFFIX_HEX = 64

const TOKEN_UNIT = /^caip19\/eip155:([1-9][0-9]{0,15})\/erc20:(0x[0-9a-fA-F]{40})$/
const ACCOUNT = /^eip155:([1-9][0-9]{0,15}):(0x[0-9a-fA-F]{40})$/

/**
 * Reads the transfer out of a payment option, or throws when the option is not an ERC-20 on an EVM chain
 * with a receiving account on that same chain: the page must never sign for a token, chain, recipient or
 * amount it had to guess, nor for one other than it shows.
 */
export function transferRequest(option: PaymentOption & { transfer?: BuiltTransfer }): TransferRequest {
  const token = TOKEN_UNIT.exec(option.tokenAmount.unit)
  const payTo = ACCOUNT.exec(option.payTo ?? '')
  if (!token || !payTo) throw new RangeError(`payment option ${option.id} is not an ERC-20 transfer`)
  const chain = token[1] ?? ''
  if (payTo[1] !== chain || option.network.id !== `eip155:${chain}`) {
    throw new RangeError(`payment option ${option.id} mixes networks`)
  }
  if (!/^[0-9]+$/.test(option.tokenAmount.value)) throw new RangeError(`payment option ${option.id} has no exact amount`)
  const request = { chainId: Number(chain), token: token[2] as Address }
  const data = transferCall(payTo[2] as Address, BigInt(option.tokenAmount.value))
  const built = option.transfer
  if (!built) return { ...request, data }
  const suffix = built.data.slice(data.length)
  if (
    built.to.toLowerCase() !== request.token.toLowerCase() ||
    built.data.slice(0, data.length).toLowerCase() !== data ||
    !/^(?:[0-9a-fA-F]{2})*$/.test(suffix) ||
    suffix.length > MAX_SUFFIX_HEX
  ) {
    throw new RangeError(`payment option ${option.id} carries a transaction other than the transfer it shows`)
  }
  return { ...request, data: built.data as `0x${string}` }
}
