import type { CheckoutSession } from '@till/contract'
import type { CheckoutAssets } from '@till/checkout-page/build'
import type { Clock } from '../domain/clock.ts'
import type { RateLimiter } from '../http/rate-limit.ts'
import type { LogoStore } from '../logos/store.ts'
import { LOGO_SIZES, type LogoUrl } from '../logos/urls.ts'
import type { PaymentService } from '../payments/service.ts'
import type { StatusEvents } from '../payments/status-events.ts'
import { TEST_WALLETS } from '../sandbox/test-wallets.ts'
import type { AccountStore } from '../store/accounts.ts'
import type { PaymentRecord } from '../store/payment-record.ts'
import type { CheckoutTokens } from './token.ts'
import { checkoutSession } from './views.ts'

/** What the checkout page and its gateway API work with. */
export type CheckoutDeps = {
  payments: PaymentService
  accounts: AccountStore
  tokens: CheckoutTokens
  events: StatusEvents
  assets: CheckoutAssets
  clock: Clock
  /** Whether the payment gets test wallets: see `sandboxPayments`. */
  isSandbox: (payment: PaymentRecord) => Promise<boolean>
  /** The page is served over HTTPS (its public address says so): then HSTS is sent too. */
  https: () => boolean
  /** How long the slow test wallet's payments stay processing; 'held': until the sandbox confirm call. */
  slowConfirmMs: number | 'held'
  limits: { perIp: RateLimiter; perPayment: RateLimiter; actionsPerPayment: RateLimiter }
  /** Set when the service is shutting down: long-polls answer at once. */
  closing: () => boolean
  /** Where merchants' logos are served, and their bytes. */
  logoUrl: LogoUrl
  logos: LogoStore
}

/**
 * Test wallets are offered for a payment only in sandbox mode, and only to a sandbox partner's payments.
 * A partner's sandbox flag never changes, so each partner is read once, not on every gateway call.
 */
export function sandboxPayments(accounts: AccountStore, sandboxMode: boolean): (payment: PaymentRecord) => Promise<boolean> {
  const partners = new Map<string, boolean>()
  return async (payment) => {
    if (!sandboxMode) return false
    let sandbox = partners.get(payment.partnerId)
    if (sandbox === undefined) {
      sandbox = (await accounts.findPartner(payment.partnerId))?.sandbox === true
      if (partners.size < 10_000) partners.set(payment.partnerId, sandbox)
    }
    return sandbox
  }
}

/** The display data of a payment's page (undefined if its merchant is gone), for the page and the API alike. */
export async function sessionFor(deps: CheckoutDeps, payment: PaymentRecord): Promise<CheckoutSession | undefined> {
  const merchant = await deps.accounts.findMerchant(payment.merchantId)
  if (!merchant) return undefined
  const sandbox = await deps.isSandbox(payment)
  const shown = { name: merchant.name, iconUrl: deps.logoUrl(merchant.logo, LOGO_SIZES.page) }
  return checkoutSession({ payment, merchant: shown, wallets: sandbox ? TEST_WALLETS : [], sandbox, now: deps.clock.now() })
}
