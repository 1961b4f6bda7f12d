import { z } from 'zod'
import { MerchantPaymentStatus } from './status.ts'
import { PayingWallet } from './wallet-app.ts'

// Every status a payment can be moved to: all but the one it starts in.
export const SimulateOutcome = MerchantPaymentStatus.exclude(['pending']).meta({
  id: 'SimulateOutcome',
  description: 'Status to move a sandbox payment to.',
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
