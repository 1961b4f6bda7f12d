import type { CheckoutSession } from '@till/contract'

/**
 * What the page's script reads of the checkout session. The amount and the merchant's logo are in the
 * server's HTML already (the first paint), so the JSON beside it leaves them out: every byte of the page
 * is on its critical path.
 */
export type PageSession = Pick<CheckoutSession, 'paymentId' | 'sandbox' | 'localChain' | 'wallets' | 'state'> & {
  merchant: Pick<CheckoutSession['merchant'], 'name'>
}

/** What the service embeds in the page as JSON (never as script: the CSP allows none inline). */
export type Bootstrap = { token: string; session: PageSession }

export function pageSession(session: CheckoutSession): PageSession {
  const { paymentId, merchant, sandbox, localChain, wallets, state } = session
  return { paymentId, merchant: { name: merchant.name }, sandbox, ...(localChain ? { localChain } : {}), wallets, state }
}
