// The merchant checkout API's operations (spec 4.2–4.4): create a payment and read its status.
import type { z } from 'zod'
import { BridgeMessage } from './bridge.ts'
import { IDEMPOTENT_REPLAYED_HEADER } from './headers.ts'
import { type OperationTexts, pathParam } from './openapi-parts.ts'
import {
  CancelPaymentResponse,
  CheckoutConfig,
  CreatePaymentRequest,
  CreatePaymentResponse,
  MerchantPaymentStatusResponse,
  PaymentStatusResponse,
  ReferenceId,
} from './payment.ts'

export const PAYMENT_COMPONENTS: readonly z.ZodType[] = [
  CheckoutConfig,
  ReferenceId,
  CreatePaymentRequest,
  CreatePaymentResponse,
  MerchantPaymentStatusResponse,
  CancelPaymentResponse,
  PaymentStatusResponse,
  // No operation answers it: the checkout page posts it to the host app's WebView (spec 4.8), which then
  // reads the payment's status.
  BridgeMessage,
]

export const PAYMENT_OPERATIONS: OperationTexts = {
  MerchantPayment_create: {
    summary: 'Create a payment',
    responses: {
      201: 'Payment created.',
      200: {
        description: 'The open payment for this referenceId and amount, replayed.',
        headers: {
          [IDEMPOTENT_REPLAYED_HEADER]: {
            description: 'Present with the value `true` when an earlier identical request is replayed.',
            schema: { type: 'string', const: 'true' },
          },
        },
      },
    },
  },
  MerchantPayment_status: {
    summary: 'Read the authoritative status of a payment',
    parameters: [pathParam('id', 'PaymentId', 'The paymentId returned at creation.')],
    responses: { 200: 'Payment status.' },
  },
  MerchantPayment_cancel: {
    summary: 'Cancel an open payment',
    description:
      'Calls off a `pending` payment that no transaction pays yet, for an order the customer no longer wants: it ends ' +
      '`cancelled` (the listing shows `cancelled`; the merchant view of 2026-02-18 shows `failed`), its checkout page says ' +
      'so, and `payment.cancelled` is sent. A transfer that arrives afterwards is unapplied with reason ' +
      '`payment_cancelled`. Cancelling a cancelled payment answers it again; any other status is refused with ' +
      "409 `payment_not_cancellable`. Whether a cancel or a buyer's transaction comes first is decided by the database: " +
      'exactly one of them wins.',
    parameters: [pathParam('paymentId', 'PaymentId', 'The paymentId returned at creation.')],
    responses: { 200: 'The payment, cancelled.' },
  },
  PartnerPayments_status: {
    summary: 'Read the status of a payment in the partner view',
    parameters: [pathParam('paymentId', 'PaymentId', 'Payment identifier.')],
    responses: { 200: 'Payment status.' },
  },
}
