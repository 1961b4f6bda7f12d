import { z } from 'zod'
import { flag } from '../config/flag.ts'
import { UnappliedCursorError, unappliedTransfers } from '../evm/index.ts'
import { adminCommand, type Command, id } from './admin-command.ts'
import { UsageError } from './args.ts'

const PAGE = 100

/**
 * `till transfers unapplied`: buyers' transfers that paid no payment, for the merchant to refund (issue 23,
 * point 4), a hundred at a time.
 */
export const TRANSFER_COMMANDS: Record<string, Command> = {
  'transfers unapplied': adminCommand({
    usage: 'till transfers unapplied --merchant ID [options]',
    about:
      "A merchant's unapplied transfers, newest first: buyers' transfers that reached the merchant but paid no payment " +
      '(it had ended or was already paid, the amount was wrong, or no payment matched). Send the amount back to the sender.',
    flags: {
      merchant: flag({ type: 'string', value: 'ID', schema: id, help: 'The merchant whose unapplied transfers to list' }),
      cursor: flag({
        type: 'string',
        value: 'CURSOR',
        schema: z.string().min(1).optional(),
        help: `Continue after the previous page (${PAGE} transfers), as its last line says`,
      }),
    },
    run: async (db, flags) => {
      const page = await unappliedTransfers(db)
        .page(flags.merchant, { limit: PAGE, ...(flags.cursor === undefined ? {} : { cursor: flags.cursor }) })
        .catch((error: unknown) => {
          if (error instanceof UnappliedCursorError) throw new UsageError('--cursor must be one this command printed.')
          throw error
        })
      return {
        merchantId: flags.merchant,
        transfers: page.transfers.map((transfer) => ({
          reason: transfer.reason,
          paymentId: transfer.paymentId,
          network: transfer.network,
          txHash: transfer.txHash,
          logIndex: transfer.logIndex,
          from: transfer.sender,
          to: transfer.recipient,
          token: `${transfer.network}/erc20:${transfer.token}`,
          amount: transfer.amount.toString(),
          recordedAt: transfer.recordedAt.toISOString(),
        })),
        nextCursor: page.nextCursor,
      }
    },
    say: (r) =>
      [
        ...(r.transfers.length === 0
          ? ['No unapplied transfers.']
          : r.transfers.map(
              (t) =>
                `${t.recordedAt}  ${t.reason}  ${t.paymentId ?? '(no payment)'}  ${t.amount} of ${t.token} from ${t.from}  (${t.network} ${t.txHash})`,
            )),
        ...(r.nextCursor === null ? [] : [`More: till transfers unapplied --merchant ${r.merchantId} --cursor ${r.nextCursor}`]),
      ].join('\n'),
  }),
}
