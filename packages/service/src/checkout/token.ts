import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Checkout tokens bind the gateway API to the page of one payment. The page is served with the token of
 * its payment and sends it back in the Checkout-Token header: a request for another payment, or from a
 * page on another site (which cannot set the header without a CORS preflight Till never grants), fails.
 * The payment id itself stays the capability to open the page; the token adds the binding, not secrecy.
 */
export function checkoutTokens(key: Buffer) {
  const sign = (paymentId: string) => createHmac('sha256', key).update(`checkout:${paymentId}`).digest()

  return {
    issue: (paymentId: string): string => sign(paymentId).toString('base64url'),

    verify(paymentId: string, token: string | undefined): boolean {
      // Compared as the exact string issued: base64url decoding is lenient (it ignores the last
      // character's spare bits and reads `+` and `/` too), so decoded bytes could match other strings.
      const expected = Buffer.from(sign(paymentId).toString('base64url'))
      const given = Buffer.from(token ?? '')
      return given.length === expected.length && timingSafeEqual(given, expected)
    },
  }
}

export type CheckoutTokens = ReturnType<typeof checkoutTokens>
