import { getAddress } from 'viem'
import { ApiError } from '../errors.ts'
import type { PaymentRecord, PaymentService } from '../payments/index.ts'
import { transferDetails } from '../rails/index.ts'
import type { EvmNetwork, EvmToken } from './config.ts'
import { evmTransfers, type Transfer } from './transfers.ts'

export type Claim = {
  payment: PaymentRecord
  network: EvmNetwork
  token: EvmToken
  transfer: Transfer
  /** The signing account's nonce, which a wallet's replacement of the transaction reuses. */
  nonce: number
  /** The chain's height when the transaction was first seen: a replacement can only be mined after it. */
  fromBlock: bigint
  /** The wallet the buyer named on the page; null for a transfer the watcher found. */
  walletName: string | null
  /** Who saw the transaction first: the checkout page posting its hash, or the chain watcher. */
  seenBy: 'page' | 'watcher'
  now: Date
}

/**
 * The one path a transfer takes to pay its payment (issue 23), whether the page posted its hash or the
 * watcher found it on chain: bound to the payment for good (a hash pays one payment), the payment moved to
 * processing, and the transaction followed to its confirmations, all in one database transaction.
 * Answers `bound` (and changes nothing) when the hash is already bound, to this payment or another; throws
 * the lifecycle's 409 invalid_transition when the payment can no longer be paid.
 */
export async function claimTransfer(payments: PaymentService, claim: Claim): Promise<PaymentRecord | 'bound'> {
  const { payment, network, transfer } = claim
  const paid = transferDetails({
    // Checksummed where people read it, as wallets and explorers show it.
    buyerAccount: `${network.id}:${getAddress(transfer.sender)}`,
    walletName: claim.walletName,
    network: network.id,
    token: claim.token,
    value: transfer.amount,
    transaction: { hash: transfer.txHash, nonce: BigInt(claim.nonce) },
  })
  return payments.atomically(async ({ transition, tx }) => {
    const transfers = evmTransfers(tx)
    if (!(await transfers.bind(transfer, claim.now, claim.seenBy))) return 'bound' as const
    const processing = await transition({ payment, to: 'processing', reason: 'transaction_submitted', paid })
    await transfers.watch({
      paymentId: payment.id,
      network: network.id,
      txHash: transfer.txHash,
      nonce: claim.nonce,
      fromBlock: claim.fromBlock,
      blockNumber: transfer.blockNumber,
      now: claim.now,
    })
    return processing
  })
}

/** Whether `error` is the lifecycle refusing the move: the payment ended (or was paid) meanwhile. */
export const endedMeanwhile = (error: unknown): boolean => error instanceof ApiError && error.code === 'invalid_transition'
