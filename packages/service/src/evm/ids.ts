import { z } from 'zod'
import { checksumAddress } from './checksum.ts'
import { expecting } from './issues.ts'

/** The form viem's `Address` has too, so the rail can hand these over as they are. */
export type Address = `0x${string}`

export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`

/**
 * EIP-55: a mixed-case address carries a checksum in its letters' case, so a mistyped digit shows. An
 * address all in one case carries none and is taken as written.
 */
export function failsChecksum(hex: string): boolean {
  const digits = hex.slice(2)
  const mixed = /[a-f]/.test(digits) && /[A-F]/.test(digits)
  return ADDRESS_PATTERN.test(hex) && mixed && checksumAddress(hex) !== hex
}

/** The address lower-cased, so one contract has one spelling; undefined when malformed or its checksum fails. */
export function normalizeAddress(hex: string): Address | undefined {
  return ADDRESS_PATTERN.test(hex) && !failsChecksum(hex) ? (hex.toLowerCase() as Address) : undefined
}

// eip155 references are decimal chain ids; leading zeros would give one chain two ids.
const NETWORK_PATTERN = /^eip155:([1-9][0-9]*)$/
const NETWORK_EXAMPLE = 'eip155:8453 for Base or eip155:31337 for a local anvil chain'

/** The chain id of a CAIP-2 `eip155:<chainId>` network, or undefined for anything else. */
export function chainIdOf(caip2: string): number | undefined {
  const digits = NETWORK_PATTERN.exec(caip2)?.[1]
  if (digits === undefined) return undefined
  const chainId = Number(digits)
  return Number.isSafeInteger(chainId) ? chainId : undefined
}

export const EvmNetworkId = z
  .string({ error: expecting(`a CAIP-2 EVM network id, eip155:<chain id>, e.g. ${NETWORK_EXAMPLE}`) })
  .refine((id) => chainIdOf(id) !== undefined, {
    error: `must be a CAIP-2 EVM network id, eip155:<chain id> with a decimal chain id, e.g. ${NETWORK_EXAMPLE}`,
  })

const ASSET_PATTERN = /^(eip155:[^/]*)\/erc20:(.*)$/
const ASSET_EXAMPLE = 'eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'

export type Erc20Asset = {
  /** CAIP-19, with the address lower-cased so that one token has one id. */
  id: string
  /** CAIP-2. */
  network: string
  address: Address
}

/** A CAIP-19 ERC-20 asset id, told apart layer by layer so the message points at the part that is wrong. */
export const Erc20AssetId = z
  .string({ error: expecting(`a CAIP-19 ERC-20 asset id, eip155:<chain id>/erc20:<contract address>, e.g. ${ASSET_EXAMPLE}`) })
  .transform((id, ctx): Erc20Asset => {
    const [, network = '', reference = ''] = ASSET_PATTERN.exec(id) ?? []
    const address = normalizeAddress(reference)
    // A failed checksum is most likely a mistyped digit: naming the checksummed form of what was typed
    // would pass the typo on, so the operator is sent back to the token's published address instead.
    const problem =
      ASSET_PATTERN.test(id) === false
        ? `must be a CAIP-19 ERC-20 asset id, eip155:<chain id>/erc20:<contract address>, e.g. ${ASSET_EXAMPLE}`
        : chainIdOf(network) === undefined
          ? `its network ${network} must be eip155:<chain id> with a decimal chain id, e.g. ${ASSET_EXAMPLE}`
          : failsChecksum(reference)
            ? "its contract address fails its EIP-55 checksum (the case of its letters), so a digit may be mistyped; copy it again from the token's published address"
            : address === undefined
              ? `its contract address must be 0x and 40 hex digits (20 bytes), e.g. ${ASSET_EXAMPLE}`
              : address === ZERO_ADDRESS
                ? 'its contract address is the zero address, which is no token contract'
                : undefined
    if (problem !== undefined || address === undefined) {
      ctx.addIssue({ code: 'custom', input: id, message: problem ?? 'is not an ERC-20 asset id' })
      return z.NEVER
    }
    return { id: `${network}/erc20:${address}`, network, address }
  })
