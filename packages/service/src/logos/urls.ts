/**
 * Where Till serves a merchant's logo: beside the checkout page's own assets, so the page's CSP (`img-src
 * 'self'`) covers it and an operator's `--checkout-url` moves both together. The digest names the bytes,
 * so the URL changes whenever the logo does.
 */
/** px: the checkout page shows the logo at up to 64 CSS px (3x), listings and wallets at larger sizes. */
export const LOGO_SIZES = { page: 192, listing: 512 } as const

export type LogoUrl = (digest: string | null, size?: number) => string | null

export function logoUrls(checkoutUrl: () => string): LogoUrl {
  return (digest, size = LOGO_SIZES.listing) => (digest === null ? null : `${checkoutUrl()}/logos/${digest}/${size}.webp`)
}
