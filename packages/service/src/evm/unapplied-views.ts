import type { LateTransfer } from '@till/contract'
import type { Queryable } from '../db/port.ts'
import { checksumAddress } from './checksum.ts'
import type { EvmConfig } from './config.ts'
import { unappliedTransfers } from './unapplied.ts'

/**
 * A merchant's late transfers as the API shows them (`GET /v1/merchants/{id}/late-transfers`): who sent
 * what, to refund. The token's display comes from the configuration, while the token is still in it.
 */
export function lateTransferViews(deps: { db: Queryable; config: Pick<EvmConfig, 'tokens' | 'networks'> | undefined }) {
  return async (merchantId: string): Promise<LateTransfer[]> => {
    const { transfers } = await unappliedTransfers(deps.db).page(merchantId, { limit: 100 })
    return transfers.flatMap((transfer) => {
      const caip19 = `${transfer.network}/erc20:${transfer.token}`
      const token = deps.config?.tokens.find((candidate) => candidate.id === caip19)
      const network = deps.config?.networks.find((candidate) => candidate.id === transfer.network)
      if (transfer.paymentId === null) return []
      return {
        paymentId: transfer.paymentId,
        transaction: { networkId: transfer.network, hash: transfer.txHash },
        from: `${transfer.network}:${checksumAddress(transfer.sender)}`,
        tokenAmount: {
          unit: `caip19/${caip19}`,
          value: transfer.amount.toString(),
          display: token
            ? {
                assetSymbol: token.symbol,
                assetName: token.name,
                decimals: token.decimals,
                ...(network ? { networkName: network.name } : {}),
              }
            : null,
        },
        recordedAt: transfer.recordedAt.toISOString(),
      }
    })
  }
}
