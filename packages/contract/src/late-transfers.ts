import { z } from 'zod'
import { Caip10, Caip2 } from './caip.ts'
import { DateTime } from './listing.ts'
import { TokenAmount } from './money.ts'

/**
 * A buyer's transfer that matched a payment but came after it had ended (expired, or already paid by
 * another transaction): the payment keeps its status and the merchant holds the money, to send back to
 * `from`. An extension of the spec, as BTCPay's "paid late".
 */
export const LateTransfer = z
  .object({
    paymentId: z.string(),
    transaction: z.object({ networkId: Caip2, hash: z.string() }),
    /** The account that sent it, where a refund goes. */
    from: Caip10,
    tokenAmount: TokenAmount,
    recordedAt: DateTime,
  })
  .meta({ id: 'LateTransfer', description: 'A transfer that came after its payment ended; the merchant refunds it to `from`.' })
export type LateTransfer = z.infer<typeof LateTransfer>

export const LateTransferList = z
  .object({ data: z.array(LateTransfer) })
  .meta({ id: 'LateTransferList', description: "A merchant's late transfers, newest first (at most 100)." })
export type LateTransferList = z.infer<typeof LateTransferList>
