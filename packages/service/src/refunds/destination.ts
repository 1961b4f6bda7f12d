import { fieldError } from '../errors.ts'
import { ADDRESS_PATTERN, checksumAddress, failsChecksum } from '../evm/index.ts'

/**
 * Checks where a refund is to go: a CAIP-10 account on the refund's own network (a refund cannot cross
 * chains), with an EIP-55 checksummed address. A mistyped address would send the money where nobody can
 * spend it, and the checksum is how a wallet or a person catches the typo; one that fails it is sent back
 * to its source rather than "corrected". Answers the account as given; throws 400 naming `field`.
 */
export function checkDestination(account: string, network: string, field: string): string {
  const separator = account.lastIndexOf(':')
  const on = account.slice(0, separator)
  const address = account.slice(separator + 1)
  if (on !== network) {
    throw fieldError(field, `must be an account on ${network}, the network the refund is paid on, not ${on || 'none'}`)
  }
  if (failsChecksum(address)) {
    throw fieldError(
      field,
      'fails its EIP-55 checksum (the case of its letters), so a digit may be mistyped; copy it again from the wallet',
    )
  }
  if (!ADDRESS_PATTERN.test(address)) throw fieldError(field, 'is not a 20-byte hexadecimal address (0x and 40 hexadecimal digits)')
  const checksummed = checksumAddress(address)
  if (checksummed !== address) throw fieldError(field, `is not EIP-55 checksummed; write it as ${network}:${checksummed}`)
  return account
}
