import type { MerchantPaymentStatus } from '@till/contract'
import type { Clock } from '../core/clock.ts'
import { pathBetween } from '../payments/index.ts'
import { ApiError } from '../errors.ts'
import type { PaymentRecord, PaymentService } from '../payments/index.ts'
import { confirmedSettlement, quoted, submittedTransaction } from './chain-data.ts'

export const SANDBOX_WALLET_NAME = 'Till Test Wallet'

/**
 * Moves a sandbox payment to `outcome` one legal step at a time (pending → succeeded passes through
 * processing, as a real payment does), recording each transition, all in one transaction. An outcome no
 * legal path reaches is refused with 409 invalid_transition.
 */
export async function simulateOutcome(
  deps: { payments: PaymentService; clock: Clock },
  payment: PaymentRecord,
  outcome: Exclude<MerchantPaymentStatus, 'pending'>,
  /** The wallet app and client that pay; recorded on the payment's first paid step. */
  wallet?: { appId: string; clientId: string },
): Promise<PaymentRecord> {
  const path = pathBetween(payment.status, outcome)
  if (!path) {
    throw new ApiError('invalid_transition', `Payment ${payment.id} is ${payment.status}; it cannot become ${outcome}.`, {
      details: { status: payment.status },
    })
  }
  // All steps or none: a crash half way must not leave a pending → succeeded move stuck at processing.
  return deps.payments.atomically(async ({ transition }) => {
    let current = payment
    for (const step of path) {
      const paid =
        step === 'processing'
          ? {
              ...submittedTransaction({ currency: current.currency, amountMinor: current.amountMinor, walletName: SANDBOX_WALLET_NAME }),
              wallet,
            }
          : step === 'succeeded' && current.paid
            ? confirmedSettlement(current.paid, current.amountMinor, deps.clock.now())
            : undefined
      // A payment declined before any transaction still says who declined it.
      const declined =
        step === 'failed' && !paid && !current.paid && wallet
          ? { ...quoted({ currency: current.currency, amountMinor: current.amountMinor, walletName: SANDBOX_WALLET_NAME }), wallet }
          : undefined
      const details = paid ?? declined
      current = await transition({ payment: current, to: step, reason: 'sandbox_simulation', ...(details ? { paid: details } : {}) })
    }
    return current
  })
}
