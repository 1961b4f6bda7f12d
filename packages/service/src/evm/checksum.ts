import { keccak_256 } from '@noble/hashes/sha3'

// EIP-55 with the hash alone, so that checking a merchant's receiving address, or showing a sender's, does
// not load viem: it loads with the EVM rail, only where a configuration names networks (bench/startup).

const encoder = new TextEncoder()

/**
 * The EIP-55 form of a 20-byte hex address (`0x` and 40 hex digits, any case): each letter upper-cased
 * where the matching nibble of keccak-256 of the lower-case hex is 8 or more.
 */
export function checksumAddress(hex: string): `0x${string}` {
  const lower = hex.slice(2).toLowerCase()
  const hash = keccak_256(encoder.encode(lower))
  let out = '0x'
  for (let index = 0; index < lower.length; index++) {
    const byte = hash[index >> 1] ?? 0
    const nibble = index % 2 === 0 ? byte >> 4 : byte & 0x0f
    const char = lower[index] ?? ''
    out += nibble >= 8 ? char.toUpperCase() : char
  }
  return out as `0x${string}`
}
