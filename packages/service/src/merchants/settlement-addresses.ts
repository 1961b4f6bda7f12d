import { getAddress } from 'viem'
import { fieldError } from '../errors.ts'

/**
 * Refuses a receiving account whose address is not EIP-55 checksummed, and names the checksummed form:
 * a mistyped address would send buyers' money where nobody can spend it, and the checksum is how a
 * wallet or a person catches the typo. Only eip155 accounts are accepted.
 */
export function checkSettlementAddresses(accounts: readonly string[]): string[] {
  return accounts.map((account, index) => {
    const field = `settlementAddresses[${index}]`
    const separator = account.lastIndexOf(':')
    const network = account.slice(0, separator)
    const address = account.slice(separator + 1)
    // One spelling per chain (no leading zeros, no names), so one network never appears twice as two strings.
    if (!/^eip155:[1-9][0-9]{0,15}$/.test(network)) {
      throw fieldError(field, `must be an account on an EVM network, eip155:<decimal chain id> such as eip155:8453, not ${network}`)
    }
    let checksummed: string
    try {
      checksummed = getAddress(address)
    } catch {
      throw fieldError(field, 'is not a 20-byte hexadecimal address')
    }
    if (checksummed !== address) throw fieldError(field, `is not EIP-55 checksummed; write it as ${network}:${checksummed}`)
    return account
  })
}
