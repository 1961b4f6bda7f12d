import type { DevWalletRequest } from '@till/contract'
import { createWalletClient, getAddress, type Hex, http, toHex } from 'viem'
import { fieldError } from '../errors.ts'
import type { EvmConfig } from './config.ts'

// transfer(address,uint256) and a payment's 16-byte reference: the only call the dev wallet signs, so it
// can pay and do nothing else.
const TRANSFER_CALL = /^0xa9059cbb[0-9a-f]{128}(?:[0-9a-f]{32})?$/i

/**
 * The checkout page's "Local dev wallet" on a local development chain (sandbox configurations only, see
 * config-rules.ts): the EIP-1193 requests a wallet answers, answered with a dev account the node itself
 * signs for. It signs ERC-20 transfers of configured tokens and nothing else, so a checkout token cannot
 * make it do more than pay.
 */
export function devWallet(config: EvmConfig) {
  const network = config.networks.find((candidate) => candidate.devWallet !== undefined)
  if (!network?.devWallet) return undefined
  const account = getAddress(network.devWallet)
  const tokens = new Set(config.tokens.filter((token) => token.network === network.id).map((token) => token.address))
  const wallet = createWalletClient({ transport: http(network.rpcUrl, { timeout: 10_000, retryCount: 0 }) })

  return async function answer(request: DevWalletRequest): Promise<unknown> {
    const [first] = request.params ?? []
    switch (request.method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return [account]
      case 'eth_chainId':
        return toHex(network.chainId)
      case 'wallet_switchEthereumChain': {
        const chainId = typeof first === 'object' && first !== null && 'chainId' in first ? first.chainId : undefined
        if (chainId === toHex(network.chainId)) return null
        throw fieldError('params[0].chainId', `the Local dev wallet pays only on ${network.name} (${toHex(network.chainId)})`)
      }
      case 'eth_sendTransaction': {
        const call = typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {}
        const to = typeof call.to === 'string' ? call.to.toLowerCase() : ''
        if (!tokens.has(to as Hex)) throw fieldError('params[0].to', 'the Local dev wallet sends only to a configured token')
        if (typeof call.data !== 'string' || !TRANSFER_CALL.test(call.data)) {
          throw fieldError('params[0].data', 'the Local dev wallet signs only an ERC-20 transfer(to, amount)')
        }
        return wallet.sendTransaction({ account, to: to as Hex, data: call.data as Hex, chain: null })
      }
      default:
        throw fieldError('method', `the Local dev wallet does not answer ${request.method}`)
    }
  }
}
