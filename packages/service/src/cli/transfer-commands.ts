import { flag } from '../config/flag.ts'
import { evmTransfers } from '../evm/index.ts'
import { adminCommand, type Command, id } from './admin-command.ts'

/** `till transfers late`: transfers that came after their payment ended, for the merchant to refund (ADR 23). */
export const TRANSFER_COMMANDS: Record<string, Command> = {
  'transfers late': adminCommand({
    usage: 'till transfers late --merchant ID [options]',
    about:
      "A merchant's late transfers, newest first: buyers' transfers that checked out but came after their payment ended. " +
      'The payment keeps its status; send the amount back to the sender.',
    flags: { merchant: flag({ type: 'string', value: 'ID', schema: id, help: 'The merchant whose late transfers to list' }) },
    run: async (db, flags) => ({
      transfers: (await evmTransfers(db).lateOf(flags.merchant)).map((transfer) => ({
        paymentId: transfer.paymentId,
        network: transfer.network,
        txHash: transfer.txHash,
        from: transfer.sender,
        token: `${transfer.network}/erc20:${transfer.token}`,
        amount: transfer.amount.toString(),
        recordedAt: transfer.recordedAt.toISOString(),
      })),
    }),
    say: (r) =>
      r.transfers.length === 0
        ? 'No late transfers.'
        : r.transfers
            .map((t) => `${t.recordedAt}  ${t.paymentId}  ${t.amount} of ${t.token} from ${t.from}  (${t.network} ${t.txHash})`)
            .join('\n'),
  }),
}
