// The sandbox's own operations, documented only in sandbox mode: move a payment along its lifecycle by hand.
import { type Json, ref } from './openapi-components.ts'
import type { OperationId } from './operations.ts'
import { errors, jsonBody, jsonResponse, pathParam, versionParam, type OperationContext } from './openapi-parts.ts'

// Each acts on one payment, with the partner's key.
const onPayment: Json = {
  security: [{ ApiKey: [] }],
  parameters: [versionParam, pathParam('paymentId', 'PaymentId', 'Payment identifier.')],
}

export function sandboxOperations({ input }: OperationContext): Partial<Record<OperationId, Json>> {
  return {
    Sandbox_simulate: {
      summary: 'Sandbox only: move a payment to a chosen status',
      ...onPayment,
      requestBody: jsonBody(input('SimulatePaymentRequest')),
      responses: {
        '200': jsonResponse('The payment after the simulated change.', ref('Payment')),
        ...errors(400, 401, 404, 409, 500),
      },
    },
    Sandbox_confirm: {
      summary: "Sandbox only: the network confirms now (the slow test wallet's payment succeeds at once)",
      description:
        "Delivers the payment's pending confirmation from the slow test wallet, whether it is due later or held " +
        '(`till serve --sandbox-hold-confirmations`). 409 invalid_transition when no confirmation is pending.',
      ...onPayment,
      responses: {
        '200': jsonResponse('The payment, succeeded.', ref('Payment')),
        ...errors(401, 404, 409, 500),
      },
    },
    Sandbox_reachDeadline: {
      summary: "Sandbox only: bring a pending payment's deadline forward to now",
      description:
        'The payment then ends as any payment past its deadline does: it expires, as of its new deadline. ' +
        '409 invalid_transition unless the payment is pending.',
      ...onPayment,
      responses: {
        '200': jsonResponse('The payment, expired.', ref('Payment')),
        ...errors(401, 404, 409, 500),
      },
    },
  }
}
