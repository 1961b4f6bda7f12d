import { fieldError } from '../errors.ts'
import { checksumAddress } from './checksum.ts'
import { ADDRESS_PATTERN, chainIdOf, failsChecksum } from './ids.ts'

/**
 * Checks an account money is sent to: a CAIP-10 EVM account (on `network` when one is named) with an EIP-55
 * checksummed address. A mistyped address would send money where nobody can spend it, and the checksum is
 * how a wallet or a person catches the typo. An address in one case carries no checksum, so its checksummed
 * form is named; one whose checksum fails may hold a mistyped digit, so it is sent back to its source rather
 * than "corrected". Answers the account as given; throws 400 naming `field`.
 */
export function checkEvmAccount(account: string, field: string, network?: string): string {
  const separator = account.lastIndexOf(':')
  const on = account.slice(0, separator)
  const address = account.slice(separator + 1)
  if (network !== undefined && on !== network) {
    throw fieldError(field, `must be an account on ${network}, the network the money is sent on, not ${on || 'none'}`)
  }
  // One spelling per chain (no leading zeros, no names), so one network never appears twice as two strings.
  if (chainIdOf(on) === undefined) {
    throw fieldError(field, `must be an account on an EVM network, eip155:<decimal chain id> such as eip155:8453, not ${on}`)
  }
  if (failsChecksum(address)) {
    throw fieldError(
      field,
      'fails its EIP-55 checksum (the case of its letters), so a digit may be mistyped; copy it again from the wallet',
    )
  }
  if (!ADDRESS_PATTERN.test(address)) throw fieldError(field, 'is not a 20-byte hexadecimal address (0x and 40 hexadecimal digits)')
  const checksummed = checksumAddress(address)
  if (checksummed !== address) throw fieldError(field, `is not EIP-55 checksummed; write it as ${on}:${checksummed}`)
  return account
}
