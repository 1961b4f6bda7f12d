import { PaymentIdParam } from '@till/contract'

/**
 * A payment id as a path segment. The id is checked with the contract's `PaymentIdParam` first, so a value
 * such as `../x` or `a/b` never changes which route is called: a caller forwarding an id it did not make
 * (from a browser, say) should check it with `PaymentIdParam` itself, or expect this TypeError.
 */
export function paymentIdSegment(paymentId: unknown): string {
  const parsed = PaymentIdParam.safeParse(paymentId)
  if (!parsed.success) {
    const problem = parsed.error.issues[0]?.message ?? 'is not valid'
    throw new TypeError(`paymentId ${JSON.stringify(paymentId)} ${problem.startsWith('must') ? problem : `must be a string: ${problem}`}`)
  }
  return encodeURIComponent(parsed.data)
}
