import { type CheckoutSession, WALLET_LINK_PATH, WEBVIEW_QUERY } from '@till/contract'
import type { CheckoutAssets } from './page-assets.ts'
import type { Clock } from '../core/clock.ts'
import type { RateLimiter } from '../http/rate-limit.ts'
import type { LogoStore } from '../logos/index.ts'
import { LOGO_SIZES, type LogoUrl } from '../logos/index.ts'
import type { PaymentRecord, PaymentService, StatusEvents } from '../payments/index.ts'
import type { PaymentRails } from '../rails/index.ts'
import type { AccountStore } from '../accounts/index.ts'
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
  /** How each payment can be paid: the page and the gateway API ask its rail, and nothing else. */
  rails: PaymentRails
  /** The page is served over HTTPS (its public address says so): then HSTS is sent too. */
  https: () => boolean
  limits: { perIp: RateLimiter; perPayment: RateLimiter; actionsPerPayment: RateLimiter }
  /** Set when the service is shutting down: long-polls answer at once. */
  closing: () => boolean
  /** The absolute base address of the checkout pages: wallet links are `<checkoutUrl>/wallet-link?uri=wc:…`. */
  checkoutUrl: () => string
  /** Where merchants' logos are served, and their bytes. */
  logoUrl: LogoUrl
  logos: LogoStore
}

/** The display data of a payment's page (undefined if its merchant is gone), for the page and the API alike. */
export async function sessionFor(
  deps: CheckoutDeps,
  payment: PaymentRecord,
  /** The app's return link when the page is embedded (spec 4.8): wallet links pass it on. */
  embedded?: { returnUrl: string },
): Promise<CheckoutSession | undefined> {
  const merchant = await deps.accounts.findMerchant(payment.merchantId)
  if (!merchant) return undefined
  const rail = await deps.rails.of(payment)
  const shown = { name: merchant.name, iconUrl: deps.logoUrl(merchant.logo, LOGO_SIZES.page) }
  const wallets = (rail ? rail.wallets(payment) : []).map((wallet) => {
    const uri = rail?.walletConnectUri?.(payment, wallet.id)
    return uri === undefined ? wallet : { ...wallet, link: walletLink(deps.checkoutUrl(), uri, embedded) }
  })
  return checkoutSession({
    payment,
    merchant: shown,
    wallets,
    sandbox: rail?.sandbox ?? false,
    localChain: rail?.localChain === true,
    now: deps.clock.now(),
  })
}

/** `<checkoutUrl>/wallet-link?uri=wc:…`, with the app's returnUrl and preferUniversalLinks=1 when embedded (spec 4.8). */
function walletLink(checkoutUrl: string, uri: string, embedded: { returnUrl: string } | undefined): string {
  const link = new URL(`${checkoutUrl}/${WALLET_LINK_PATH}`)
  link.searchParams.set('uri', uri)
  if (embedded) {
    link.searchParams.set(WEBVIEW_QUERY.returnUrl, embedded.returnUrl)
    link.searchParams.set(WEBVIEW_QUERY.preferUniversalLinks, '1')
  }
  return link.href
}
