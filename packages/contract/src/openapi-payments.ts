// The merchant checkout API's operations (spec 4.2–4.4): create a payment and read its status.
import { IDEMPOTENT_REPLAYED_HEADER } from './headers.ts'
import { type Json, ref } from './openapi-components.ts'
import type { OperationId } from './operations.ts'
import { errors, jsonBody, jsonResponse, type OperationContext, pathParam, versionParam } from './openapi-parts.ts'

export function paymentOperations({ input, merchantAuth }: OperationContext): Partial<Record<OperationId, Json>> {
  return {
    MerchantPayment_create: {
      summary: 'Create a payment',
      security: merchantAuth,
      parameters: [versionParam],
      requestBody: jsonBody(input('CreatePaymentRequest')),
      responses: {
        '201': jsonResponse('Payment created.', ref('CreatePaymentResponse')),
        '200': jsonResponse('The open payment for this referenceId and amount, replayed.', ref('CreatePaymentResponse'), {
          [IDEMPOTENT_REPLAYED_HEADER]: {
            description: 'Present with the value `true` when an earlier identical request is replayed.',
            schema: { type: 'string', const: 'true' },
          },
        }),
        ...errors(400, 401, 404, 409, 500),
      },
    },
    MerchantPayment_status: {
      summary: 'Read the authoritative status of a payment',
      security: merchantAuth,
      parameters: [versionParam, pathParam('id', 'PaymentId', 'The paymentId returned at creation.')],
      responses: {
        '200': jsonResponse('Payment status.', ref('MerchantPaymentStatusResponse')),
        ...errors(400, 401, 404, 500),
      },
    },
    PartnerPayments_status: {
      summary: 'Read the status of a payment in the partner view',
      security: [{ ApiKey: [] }],
      parameters: [versionParam, pathParam('paymentId', 'PaymentId', 'Payment identifier.')],
      responses: {
        '200': jsonResponse('Payment status.', ref('PaymentStatusResponse')),
        ...errors(400, 401, 404, 500),
      },
    },
  }
}
