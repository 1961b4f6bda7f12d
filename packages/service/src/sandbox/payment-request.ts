import { getAddress } from 'viem'
import { paymentRequestUri } from '../rails/index.ts'
import type { SandboxOption } from './chain-data.ts'

/**
 * Where a sandbox option's payment request sends the tokens when the merchant has no sandbox receiving
 * address on the option's network: the zero address, which nobody holds a key for. It is a fake on purpose,
 * and obviously one on the page ("Send to 0x0000…0000"): the sandbox's options name real tokens on real
 * chains, so a real phone wallet could sign the request, and its tokens must not reach anyone. USDC refuses
 * a transfer to it. Nothing ever pays a sandbox request on chain: a test plays the phone wallet with the
 * sandbox simulate call (`POST /v1/sandbox/payments/{id}/simulate`).
 */
export const SANDBOX_FAKE_RECIPIENT = '0x0000000000000000000000000000000000000000'

/** The merchant's receiving address on `network` (CAIP-2), from their CAIP-10 settlement accounts, if any. */
function receivingAddress(settlementAddresses: readonly string[], network: string): string | undefined {
  const account = settlementAddresses.find((candidate) => candidate.toLowerCase().startsWith(`${network}:`))
  const address = account?.slice(network.length + 1)
  return address && /^0x[0-9a-fA-F]{40}$/.test(address) ? address : undefined
}

/**
 * The EIP-681 payment request the page shows for a sandbox option (the "Phone wallet (sandbox)"): the option's
 * token contract on its chain, the exact amount, and the merchant's sandbox address there, or the fake one.
 */
export function sandboxPaymentRequest(option: SandboxOption, amount: bigint, settlementAddresses: readonly string[]): string {
  const chainId = Number(option.network.caip2.split(':')[1])
  const token = option.token.caip19.split(':').pop() ?? ''
  const recipient = receivingAddress(settlementAddresses, option.network.caip2) ?? SANDBOX_FAKE_RECIPIENT
  return paymentRequestUri({ token: getAddress(token), chainId, recipient: getAddress(recipient), amount })
}
