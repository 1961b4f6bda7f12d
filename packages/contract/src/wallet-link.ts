import { WEBVIEW_QUERY } from './bridge.ts'

/**
 * Wallet links (spec 4.8): to open a wallet, the checkout page navigates in the same frame to a URL whose
 * `uri` query parameter starts with `wc:`; a native host hands that whole URL to the OS. Till's links are
 * `<checkoutUrl>/wallet-link?uri=wc:…`, with the app's `returnUrl` and `preferUniversalLinks=1` passed on
 * when the page is embedded.
 */
export const WALLET_LINK_PATH = 'wallet-link'

/** Whether a URL is a wallet link: its `uri` parameter starts with `wc:`. */
export function isWalletLink(url: string): boolean {
  if (!URL.canParse(url)) return false
  return new URL(url).searchParams.get('uri')?.startsWith('wc:') === true
}

// The sandbox's link names the payment as its topic and carries no key: the sandbox "wallet app" pays
// through the sandbox API (simulate), with the sandbox partner's own key. Only sandbox payments get one.
const SANDBOX_RELAY = 'till-sandbox'

export function sandboxWalletConnectUri(input: { paymentId: string }): string {
  return `wc:${input.paymentId}@2?relay-protocol=${SANDBOX_RELAY}`
}

/** What a sandbox wallet link says: where its checkout is, which payment, where to return; null for any other link. */
export function parseSandboxWalletLink(link: string): { checkoutUrl: string; paymentId: string; returnUrl: string | null } | null {
  if (!isWalletLink(link)) return null
  const url = new URL(link)
  const uri = url.searchParams.get('uri') ?? ''
  const match = /^wc:([^@?]+)@2\?(.*)$/.exec(uri)
  if (!match?.[1] || !url.pathname.endsWith(`/${WALLET_LINK_PATH}`)) return null
  if (new URLSearchParams(match[2]).get('relay-protocol') !== SANDBOX_RELAY) return null
  return {
    checkoutUrl: `${url.origin}${url.pathname.slice(0, -WALLET_LINK_PATH.length - 1)}`,
    paymentId: match[1],
    returnUrl: url.searchParams.get(WEBVIEW_QUERY.returnUrl),
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * Why a `returnUrl` cannot be the app's return destination, or undefined when it can: an absolute URL, the
 * app's own deep link (a custom scheme) or an https universal link; http only on a loopback host (local
 * development); never a scheme that runs or embeds content.
 */
export function returnUrlProblem(value: string): string | undefined {
  if (!URL.canParse(value)) return 'must be an absolute URL: the app’s own deep link, e.g. myapp://checkout/done'
  const url = new URL(value)
  const scheme = url.protocol.slice(0, -1).toLowerCase()
  if (['javascript', 'data', 'vbscript', 'file', 'blob', 'about'].includes(scheme)) {
    return `must be the app’s own deep link or an https link, not a ${scheme}: URL`
  }
  if (scheme === 'http' && !LOOPBACK_HOSTS.has(url.hostname)) return 'must use https (http only on 127.0.0.1 or localhost)'
  return undefined
}
