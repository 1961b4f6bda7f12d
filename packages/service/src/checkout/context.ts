import type { CheckoutAssets } from '@till/checkout-page/build'
import type { Clock } from '../domain/clock.ts'
import type { RateLimiter } from '../http/rate-limit.ts'
import type { PaymentService } from '../payments/service.ts'
import type { StatusEvents } from '../payments/status-events.ts'
import type { SandboxConfirmations } from '../sandbox/confirmations.ts'
import type { AccountStore } from '../store/accounts.ts'
import type { PaymentRecord } from '../store/payment-record.ts'
import type { CheckoutTokens } from './token.ts'

/** What the checkout page and its gateway API work with. */
export type CheckoutDeps = {
  payments: PaymentService
  accounts: AccountStore
  tokens: CheckoutTokens
  events: StatusEvents
  assets: CheckoutAssets
  clock: Clock
  /** The service runs in sandbox mode: sandbox partners' payments get test wallets. */
  sandbox: boolean
  /** The page is served over HTTPS (its public address says so): then HSTS is sent too. */
  https: () => boolean
  slowConfirmMs: number
  confirmations: SandboxConfirmations
  limits: { perIp: RateLimiter; perPayment: RateLimiter; actionsPerPayment: RateLimiter }
  /** Set when the service is shutting down: long-polls answer at once. */
  closing: () => boolean
}

/** Test wallets are offered for a payment only in sandbox mode, and only to a sandbox partner's payments. */
export async function isSandboxPayment(deps: Pick<CheckoutDeps, 'sandbox' | 'accounts'>, payment: PaymentRecord): Promise<boolean> {
  if (!deps.sandbox) return false
  return (await deps.accounts.findPartner(payment.partnerId))?.sandbox === true
}
