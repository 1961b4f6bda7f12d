import { createHash } from 'node:crypto'
import { type Address, concat, encodeFunctionData, erc20Abi, type Hex } from 'viem'

/**
 * A payment's reference: 16 bytes the buyer's transfer carries after its arguments (tokens ignore calldata
 * beyond what they decode, as with ERC-8021's suffixes). It ties the transaction to this one payment, so a
 * hash seen in a mempool cannot be claimed for another payment with the same terms (ADR 23). It need not be
 * secret: what matters is that the buyer's signed transaction already holds it.
 */
export function paymentReference(paymentId: string): Hex {
  return `0x${createHash('sha256').update(`till-payment:${paymentId}`).digest('hex').slice(0, 32)}`
}

/** The calldata the buyer signs: ERC-20 transfer(recipient, amount), then the payment's reference. */
export function transferCall(recipient: Address, amount: bigint, reference: Hex): Hex {
  return concat([encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, amount] }), reference])
}

// ERC-8021 (transaction attribution): `schemaData || schemaId (1 byte) || marker (16 bytes)`, appended to
// calldata by wallets and apps to credit themselves. Tokens ignore it, as they ignore the reference.
const ATTRIBUTION_MARKER = '80218021802180218021802180218021'
const ATTRIBUTION_MIN_HEX = ATTRIBUTION_MARKER.length + 2

/**
 * Whether `input` is exactly `call` (the transfer and reference the checkout page built), or that followed by
 * an ERC-8021 attribution suffix a wallet appended when it signed. Nothing else may follow: the reference
 * must be where the page put it, right after the transfer's arguments.
 */
export function carriesCall(input: Hex, call: Hex): boolean {
  const given = input.toLowerCase()
  const expected = call.toLowerCase()
  if (given === expected) return true
  if (!given.startsWith(expected)) return false
  const suffix = given.slice(expected.length)
  return suffix.length % 2 === 0 && suffix.length >= ATTRIBUTION_MIN_HEX && suffix.endsWith(ATTRIBUTION_MARKER)
}
