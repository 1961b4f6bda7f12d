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
