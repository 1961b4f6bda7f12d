import { type OperationId, type OperationParams, OPERATIONS, operationPath, PaymentIdParam, RefundIdParam } from '@till/contract'
import type { z } from 'zod'

/**
 * A payment id checked with the contract's `PaymentIdParam`, so a value such as `../x` or `a/b` never
 * changes which route is called: a caller forwarding an id it did not make (from a browser, say) should
 * check it with `PaymentIdParam` itself, or expect this TypeError.
 */
export function checkedPaymentId(paymentId: unknown): string {
  return checkedId('paymentId', PaymentIdParam, paymentId)
}

/** A refund id (`rfd_…`) checked with the contract's `RefundIdParam`, for the same reason as {@link checkedPaymentId}. */
export function checkedRefundId(refundId: unknown): string {
  return checkedId('refundId', RefundIdParam, refundId)
}

function checkedId(name: string, schema: z.ZodType<string>, value: unknown): string {
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    const problem = parsed.error.issues[0]?.message ?? 'is not valid'
    throw new TypeError(`${name} ${JSON.stringify(value)} ${problem.startsWith('must') ? problem : `must be a string: ${problem}`}`)
  }
  return parsed.data
}

/** An operation's method and path, its parameters filled in and encoded, from the contract's table. */
export function endpoint<Id extends OperationId>(id: Id, params: OperationParams<Id>) {
  return { method: OPERATIONS[id].method, path: operationPath(id, params) }
}
