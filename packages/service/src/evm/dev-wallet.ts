import type { DevWalletRequest } from '@till/contract'
import { createWalletClient, getAddress, type Hex, http, toHex } from 'viem'
import { ApiError, fieldError } from '../errors.ts'
import type { EvmConfig } from './config.ts'

/** A call the dev wallet may send: one of a pending payment's own transfers, exactly as Till built it. */
export type AllowedCall = { to: string; data: string }

/**
 * The checkout page's "Local dev wallet" on a local development chain (sandbox configurations only, see
 * config-rules.ts): the EIP-1193 requests a wallet answers, answered with a dev account the node itself
 * signs for. It sends only the transfers of the payment whose page asks, while it is pending, so a
 * checkout token cannot make it do more than pay that payment.
 */
export function devWallet(config: EvmConfig) {
  const network = config.networks.find((candidate) => candidate.devWallet !== undefined)
  if (!network?.devWallet) return undefined
  const account = getAddress(network.devWallet)
  const wallet = createWalletClient({ transport: http(network.rpcUrl, { timeout: 10_000, retryCount: 0 }) })

  return async function answer(request: DevWalletRequest, allowed: readonly AllowedCall[]): Promise<unknown> {
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
        const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase()
        const match = allowed.find((candidate) => same(call.to, candidate.to) && same(call.data, candidate.data))
        if (!match) throw fieldError('params[0]', 'the Local dev wallet sends only this pending payment’s own transfer')
        try {
          return await wallet.sendTransaction({ account, to: match.to as Hex, data: match.data as Hex, chain: null })
        } catch {
          throw new ApiError('bad_gateway', `${network.name} did not take the transaction; is the local chain running?`)
        }
      }
      default:
        throw fieldError('method', `the Local dev wallet does not answer ${request.method}`)
    }
  }
}
