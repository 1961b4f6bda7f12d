import { isLoopbackHttp, queryParam, schemeOf } from './url.ts'

/**
 * What the host does with a navigation the checkout's WebView is about to make (spec 4.8, "Wallet deeplink
 * interception"):
 * - `open-externally`: a wallet link. Hand the WHOLE URL to the operating system (not just its `wc:` value),
 *   never load it, and ignore a failure to open it (no wallet installed): the page stays as it was.
 * - `allow`: let the WebView load it.
 * - `block`: cancel it.
 */
export type NavigationAction = 'open-externally' | 'allow' | 'block'

export interface NavigationDecision {
  action: NavigationAction
  /** A short human-readable explanation, for logs. */
  reason: string
}

export interface DecideNavigationOptions {
  /**
   * Also allow plain http to 127.0.0.1, localhost and [::1], for a Till running on the developer's machine.
   * Off by default: the spec allows only https and about.
   */
  allowLoopbackHttp?: boolean
}

/**
 * Schemes never handed to the operating system, even with a `uri=wc:` parameter: they run or embed content,
 * or reach the device's files. The spec's wallet links are https universal links or wallets' own schemes.
 */
const NEVER_EXTERNAL: ReadonlySet<string> = new Set(['javascript', 'data', 'vbscript', 'file', 'blob', 'content', 'filesystem', 'about'])

/**
 * The decision table of spec 4.8 for one navigation of the checkout's WebView:
 *
 * | URL | action |
 * |---|---|
 * | its `uri` query parameter starts with `wc:` (on https, http or a wallet's own scheme) | `open-externally` |
 * | `https:` | `allow` |
 * | `about:` (about:blank, about:srcdoc) | `allow` |
 * | anything else: `tel:`, `sms:`, `mailto:`, `intent:`, `javascript:`, `data:`, `file:`, `http:`, custom schemes, not a URL | `block` |
 *
 * A `uri=wc:` parameter on `javascript:`, `data:`, `file:`, `blob:`, `content:` or `about:` does not make
 * the URL a wallet link: those are blocked (or, for about:, loaded) as usual.
 */
export function decideNavigation(url: string, options: DecideNavigationOptions = {}): NavigationDecision {
  const scheme = typeof url === 'string' ? schemeOf(url) : undefined
  if (scheme === undefined) return { action: 'block', reason: 'not a well-formed absolute URL' }
  if (!NEVER_EXTERNAL.has(scheme) && queryParam(url, 'uri')?.startsWith('wc:')) {
    return { action: 'open-externally', reason: 'wallet link (uri=wc:…): hand the whole URL to the OS, ignore a failure to open it' }
  }
  if (scheme === 'https') return { action: 'allow', reason: 'https loads in the WebView' }
  if (scheme === 'about') return { action: 'allow', reason: 'about: loads in the WebView' }
  if (scheme === 'http' && options.allowLoopbackHttp === true && isLoopbackHttp(url)) {
    return { action: 'allow', reason: 'http to a loopback host (local development) loads in the WebView' }
  }
  return { action: 'block', reason: `${scheme}: is blocked: only https and about load in the checkout` }
}
