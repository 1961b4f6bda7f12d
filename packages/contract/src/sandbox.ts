import { z } from 'zod'
import { MerchantPaymentStatus } from './status.ts'
import { MERCHANT_ONLY_STATUSES, REFUND_TRANSITIONS } from './statuses.ts'
import { PayingWallet } from './wallet-app.ts'

// Every status a buyer's payment can come to: all but the one it starts in, and `cancelled`, which the merchant
// alone reaches, with the cancel operation, in the sandbox as anywhere.
export const SimulateOutcome = MerchantPaymentStatus.exclude(['pending', ...MERCHANT_ONLY_STATUSES]).meta({
  id: 'SimulateOutcome',
  description: 'Status to move a sandbox payment to. A payment is cancelled with POST /v1/merchant/payment/{paymentId}/cancel.',
})
export type SimulateOutcome = z.infer<typeof SimulateOutcome>

export const SimulatePaymentRequest = z
  .object({
    outcome: SimulateOutcome,
    wallet: PayingWallet.optional().meta({
      description: 'Pay as this wallet app and client (the app must be registered with the partner): the payment is then listed to them.',
    }),
  })
  .meta({ id: 'SimulatePaymentRequest', description: 'Body of the sandbox-only simulate endpoint.' })
export type SimulatePaymentRequest = z.infer<typeof SimulatePaymentRequest>

export const SimulateRefundRequest = z
  .object({
    // How a refund's transaction can end, once submitted.
    outcome: z.enum(REFUND_TRANSITIONS.submitted).meta({
      description:
        "succeeded: the merchant's wallet paid the refund and the network confirmed it; failed: its transaction reverted. " +
        'A refund still awaiting its destination gets a test account of its network first.',
    }),
  })
  .meta({ id: 'SimulateRefundRequest', description: 'Body of the sandbox-only refund simulate endpoint.' })
export type SimulateRefundRequest = z.infer<typeof SimulateRefundRequest>
