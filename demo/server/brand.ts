// The shop's brand: "Till Tea" and its logo. The logo is drawn as SVG and rendered to a 1024 px PNG when the
// shop is built (logo.ts), since a merchant logo must be PNG, JPEG, WebP or AVIF (spec 8.2). The shop serves
// it over its own HTTPS, and registers itself with Till through POST /v1/merchants, which fetches and keeps a
// copy. Then it registers its webhook endpoint, so Till tells it of payments whether or not the buyer comes back.
import type { TillClient } from '@till/client'
import type { Merchant } from '@till/contract'

export const SHOP_NAME = 'Till Tea'
export const SHOP_EMAIL = 'hello@till-tea.example'
/**
 * The line under the shop's header: what a buyer pays with here. The pages are built with the sandbox's;
 * a stack on a local chain serves them with the local chain's (app.ts).
 */
export const SHOP_TAGLINE = {
  sandbox: 'A demo shop on Till’s sandbox: test wallets, no real money.',
  local: 'A demo shop on a local test chain: tokens minted for the demo, no real money.',
} as const

/** Where the shop serves its logo, and where the build leaves it in the shop's directory. */
export const LOGO_PATH = '/brand/till-tea.png'

/** Where the shop's pay router takes Till's webhooks (payRouter mounts them at /pay/webhooks). */
export const WEBHOOK_PATH = '/pay/webhooks'

/**
 * Registers the shop with Till: as a merchant of the sandbox partner, logo included (the key makes a
 * repeated registration with the same data replay instead of creating a second merchant), then its webhook
 * endpoint, whose signing secret is shown only now.
 */
export async function registerShop(
  till: TillClient,
  shopUrl: string,
  /** CAIP-10 accounts the shop receives on, one per network (a local chain's, in the demo). */
  settlementAddresses: string[] = [],
): Promise<{ merchant: Merchant; webhookSecret: string }> {
  const { merchant } = await till.merchants.create(
    {
      merchantName: SHOP_NAME,
      merchantEmail: SHOP_EMAIL,
      iconUrl: `${shopUrl}${LOGO_PATH}`,
    },
    { idempotencyKey: `demo-shop ${shopUrl}` },
  )
  // Receiving accounts are set by an update, as a partner adds them once the merchant has a wallet.
  if (settlementAddresses.length > 0) await till.merchants.update(merchant.id, { settlementAddresses })
  const { secret } = await till.webhookEndpoints.create({ url: `${shopUrl}${WEBHOOK_PATH}` }, { merchantId: merchant.id })
  return { merchant, webhookSecret: secret }
}
