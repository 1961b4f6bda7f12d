// The sandbox's own operations, documented only in sandbox mode: move a payment along its lifecycle by hand.
import type { z } from 'zod'
import { type OperationTexts, pathParam } from './openapi-parts.ts'
import { SimulateOutcome, SimulatePaymentRequest, SimulateRefundRequest } from './sandbox.ts'
import { AppId, PayingWallet, WalletClientId } from './wallet-app.ts'

/** The simulate request, with the wallet app and client it may name as the payer. */
export const SANDBOX_COMPONENTS: readonly z.ZodType[] = [
  SimulateOutcome,
  AppId,
  WalletClientId,
  PayingWallet,
  SimulatePaymentRequest,
  SimulateRefundRequest,
]

// Each acts on one payment.
const onPayment = [pathParam('paymentId', 'PaymentId', 'Payment identifier.')]

export const SANDBOX_OPERATIONS: OperationTexts = {
  Sandbox_simulate: {
    summary: 'Sandbox only: move a payment to a chosen status',
    description:
      'Each step is a legal transition (pending → succeeded passes through processing). It is also how a test ' +
      'plays a phone wallet paying: the checkout page\'s "Phone wallet (sandbox)" shows the payment request of a ' +
      'sandbox option, which nothing else pays; `succeeded` pays it, and the page, which follows the status, ' +
      'shows the outcome.',
    parameters: onPayment,
    responses: { 200: 'The payment after the simulated change.' },
  },
  Sandbox_confirm: {
    summary: "Sandbox only: the network confirms now (the slow test wallet's payment succeeds at once)",
    description:
      "Delivers the payment's pending confirmation from the slow test wallet, whether it is due later or held " +
      '(`till serve --sandbox-hold-confirmations`). 409 invalid_transition when no confirmation is pending.',
    parameters: onPayment,
    responses: { 200: 'The payment, succeeded.' },
  },
  Sandbox_reachDeadline: {
    summary: "Sandbox only: bring a pending payment's deadline forward to now",
    description:
      'The payment then ends as any payment past its deadline does: it expires, as of its new deadline. ' +
      '409 invalid_transition unless the payment is pending.',
    parameters: onPayment,
    responses: { 200: 'The payment, expired.' },
  },
  Sandbox_simulateRefund: {
    summary: "Sandbox only: play the merchant's wallet paying a refund",
    description:
      'succeeded: the refund is paid and confirmed, as if from the merchant’s wallet; failed: its transaction reverted. ' +
      'A refund awaiting its destination is first given a test account of its network. 409 refund_not_payable once ' +
      'it ended.',
    parameters: [pathParam('refundId', 'RefundId', 'Refund identifier.')],
    responses: { 200: 'The refund after the simulated payment.' },
  },
}
