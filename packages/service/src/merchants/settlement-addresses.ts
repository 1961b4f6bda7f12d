import { fieldError } from '../errors.ts'
import { ADDRESS_PATTERN, chainIdOf, checksumAddress, failsChecksum } from '../evm/index.ts'

/**
 * Refuses a receiving account that is not an EVM account with an EIP-55 checksummed address: a mistyped
 * address would send buyers' money where nobody can spend it, and the checksum is how a wallet or a person
 * catches the typo. An address in one case carries no checksum, so its checksummed form is named; one whose
 * checksum fails may hold a mistyped digit, so it is sent back to its source rather than "corrected".
 */
export function checkSettlementAddresses(accounts: readonly string[]): string[] {
  return accounts.map((account, index) => {
    const field = `settlementAddresses[${index}]`
    const separator = account.lastIndexOf(':')
    const network = account.slice(0, separator)
    const address = account.slice(separator + 1)
    // One spelling per chain (no leading zeros, no names), so one network never appears twice as two strings.
    if (chainIdOf(network) === undefined) {
      throw fieldError(field, `must be an account on an EVM network, eip155:<decimal chain id> such as eip155:8453, not ${network}`)
    }
    if (failsChecksum(address)) {
      throw fieldError(
        field,
        'fails its EIP-55 checksum (the case of its letters), so a digit may be mistyped; copy it again from the wallet',
      )
    }
    if (!ADDRESS_PATTERN.test(address)) throw fieldError(field, 'is not a 20-byte hexadecimal address')
    const checksummed = checksumAddress(address)
    if (checksummed !== address) throw fieldError(field, `is not EIP-55 checksummed; write it as ${network}:${checksummed}`)
    return account
  })
}
