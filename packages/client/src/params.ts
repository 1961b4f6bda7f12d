import { type OperationId, type OperationParams, OPERATIONS, operationPath, PaymentIdParam } from '@till/contract'

/**
 * A payment id checked with the contract's `PaymentIdParam`, so a value such as `../x` or `a/b` never
 * changes which route is called: a caller forwarding an id it did not make (from a browser, say) should
 * check it with `PaymentIdParam` itself, or expect this TypeError.
 */
export function checkedPaymentId(paymentId: unknown): string {
  const parsed = PaymentIdParam.safeParse(paymentId)
  if (!parsed.success) {
    const problem = parsed.error.issues[0]?.message ?? 'is not valid'
    throw new TypeError(`paymentId ${JSON.stringify(paymentId)} ${problem.startsWith('must') ? problem : `must be a string: ${problem}`}`)
  }
  return parsed.data
}

/** An operation's method and path, its parameters filled in and encoded, from the contract's table. */
export function endpoint<Id extends OperationId>(id: Id, params: OperationParams<Id>) {
  return { method: OPERATIONS[id].method, path: operationPath(id, params) }
}
