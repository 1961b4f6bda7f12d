import {
  listingQueryErrorCode,
  PageQuery,
  type RawQuery,
  toErrorIssues,
  type UnappliedReason,
  type UnappliedTransfer as UnappliedTransferView,
  type UnappliedTransferList,
} from '@till/contract'
import type { Queryable } from '../db/port.ts'
import { ApiError } from '../errors.ts'
import { checksumAddress } from './checksum.ts'
import type { EvmConfig } from './config.ts'
import type { Address } from './ids.ts'
import { type RecordedUnappliedTransfer, UnappliedCursorError, unappliedTransfers } from './unapplied.ts'

/** An unapplied transfer's id, as POST /v1/refunds takes it: its network and transaction hash. */
export const unappliedTransferId = (transfer: { network: string; txHash: string }): string => `${transfer.network}/${transfer.txHash}`

type TokenConfig = Pick<EvmConfig, 'tokens' | 'networks'> | undefined

/**
 * An unapplied transfer as the API shows it (`GET /v1/merchants/{id}/unapplied-transfers`, the
 * `transfer.unapplied` webhook event): who sent what, to whom, and why it paid nothing. The token's display
 * comes from the configuration, while the token is still in it.
 */
export function unappliedTransferView(transfer: RecordedUnappliedTransfer, config: TokenConfig): UnappliedTransferView {
  const caip19 = `${transfer.network}/erc20:${transfer.token}`
  const token = config?.tokens.find((candidate) => candidate.id === caip19)
  const network = config?.networks.find((candidate) => candidate.id === transfer.network)
  return {
    id: unappliedTransferId(transfer),
    transaction: { networkId: transfer.network, hash: transfer.txHash, logIndex: transfer.logIndex },
    // Checksummed where people read them, as wallets and explorers show them.
    from: `${transfer.network}:${checksumAddress(transfer.sender)}`,
    to: `${transfer.network}:${checksumAddress(transfer.recipient)}`,
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
    reason: transfer.reason,
    paymentId: transfer.paymentId,
    recordedAt: transfer.recordedAt.toISOString(),
  }
}

/**
 * The row the outbox trigger saved (migration 0014: to_jsonb, numbers as text) as the API shows it: the
 * `data` of a `transfer.unapplied` event, but for its payment.
 */
export function unappliedSnapshotView(config: TokenConfig) {
  return (snapshot: Record<string, unknown>): UnappliedTransferView => {
    const text = (column: string) => String(snapshot[column])
    const blockNumber = snapshot.block_number
    return unappliedTransferView(
      {
        network: text('network'),
        txHash: text('tx_hash'),
        logIndex: typeof snapshot.log_index === 'number' ? snapshot.log_index : null,
        merchantId: text('merchant_id'),
        paymentId: typeof snapshot.payment_id === 'string' ? snapshot.payment_id : null,
        reason: text('reason') as UnappliedReason,
        sender: text('sender') as Address,
        recipient: text('recipient') as Address,
        token: text('token') as Address,
        amount: BigInt(text('amount')),
        blockNumber: typeof blockNumber === 'string' ? BigInt(blockNumber) : null,
        recordedAt: new Date(text('recorded_at')),
      },
      config,
    )
  }
}

/** One page of a merchant's unapplied transfers for the API, from the request's raw query. */
export function unappliedTransferPages(deps: { db: Queryable; config: TokenConfig }) {
  return async (merchantId: string, raw: RawQuery): Promise<UnappliedTransferList> => {
    const parsed = PageQuery.safeParse(raw)
    if (!parsed.success) {
      const issues = toErrorIssues(parsed.error, 'query')
      const first = issues[0]
      throw new ApiError(listingQueryErrorCode(parsed.error), `Invalid query (${first?.field}: ${first?.message}).`, { issues })
    }
    const { limit, cursor } = parsed.data
    try {
      const page = await unappliedTransfers(deps.db).page(merchantId, { limit, ...(cursor === undefined ? {} : { cursor }) })
      return { data: page.transfers.map((transfer) => unappliedTransferView(transfer, deps.config)), nextCursor: page.nextCursor }
    } catch (error) {
      if (!(error instanceof UnappliedCursorError)) throw error
      throw new ApiError('invalid_params', 'The cursor was not issued by this list: pass the nextCursor of the previous page unchanged.', {
        issues: [{ field: 'cursor', message: 'must be the nextCursor of a previous page of this list' }],
      })
    }
  }
}
