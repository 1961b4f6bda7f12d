import { WEBVIEW_QUERY } from '@till/contract'
import { decodeQueryComponent, hostOf, isLoopbackHttp, LOOPBACK_HOSTS, schemeOf, splitUrl } from './url.ts'

export interface EmbeddedCheckoutOptions {
  /**
   * The app's own deep link (`myapp://checkout/done`) or an https universal link: wallets send the buyer
   * back there after signing. http only on 127.0.0.1, localhost or [::1].
   */
  returnUrl: string
}

/** Schemes that run or embed content, or point at no app: never a return destination. */
const FORBIDDEN_RETURN_SCHEMES: ReadonlySet<string> = new Set([
  'javascript',
  'data',
  'vbscript',
  'file',
  'blob',
  'about',
  'content',
  'filesystem',
])
/** Web schemes other than http(s): no app is reached through them. */
const OTHER_WEB_SCHEMES: ReadonlySet<string> = new Set(['ws', 'wss', 'ftp'])

const loopbacks = [...LOOPBACK_HOSTS].join(', ')

function gatewayUrlProblem(gatewayUrl: string): string | undefined {
  const scheme = schemeOf(gatewayUrl)
  const expected = `must be the absolute https URL Till returned (http only on ${loopbacks})`
  if (scheme === undefined) return `${expected}; got something that is not an absolute URL`
  if (scheme === 'https') return hostOf(gatewayUrl) === undefined ? `${expected}; its host is missing or malformed` : undefined
  if (scheme === 'http') return isLoopbackHttp(gatewayUrl) ? undefined : `${expected}; got http to a host that is not a loopback host`
  return `${expected}; got a ${scheme}: URL`
}

function returnUrlProblem(returnUrl: string): string | undefined {
  const scheme = schemeOf(returnUrl)
  const expected = 'must be an absolute URL: the app’s own deep link (myapp://checkout/done) or an https universal link'
  if (scheme === undefined) return `${expected}; got something that is not an absolute URL`
  if (FORBIDDEN_RETURN_SCHEMES.has(scheme) || OTHER_WEB_SCHEMES.has(scheme)) return `${expected}; not a ${scheme}: URL`
  if (scheme === 'https' && hostOf(returnUrl) === undefined) return `${expected}; its host is missing or malformed`
  if (scheme === 'http' && !isLoopbackHttp(returnUrl)) return `must use https (http only on ${loopbacks})`
  try {
    encodeURIComponent(returnUrl)
  } catch {
    return `${expected}; it contains a lone surrogate`
  }
  return undefined
}

const REPLACED: ReadonlySet<string> = new Set([WEBVIEW_QUERY.returnUrl, WEBVIEW_QUERY.preferUniversalLinks])

/**
 * The address to load in the app's WebView (spec 4.8): the `gatewayUrl` Till gave, with `returnUrl` and
 * `preferUniversalLinks=1` set. Everything else in it (path, other query parameters, fragment) is kept as it
 * was; earlier values of those two parameters are replaced. The base address is never rebuilt.
 *
 * @throws TypeError when `gatewayUrl` is not an absolute https URL (http only on a loopback host, for local
 *   development), or `returnUrl` is not an absolute URL, is a `javascript:`, `data:`, `file:` (…) URL, or
 *   http to a host other than a loopback host.
 */
export function embeddedCheckoutUrl(gatewayUrl: string, options: EmbeddedCheckoutOptions): string {
  if (typeof gatewayUrl !== 'string') throw new TypeError('embeddedCheckoutUrl: gatewayUrl must be a string')
  const gatewayProblem = gatewayUrlProblem(gatewayUrl)
  if (gatewayProblem !== undefined) throw new TypeError(`embeddedCheckoutUrl: gatewayUrl ${gatewayProblem}`)
  const returnUrl: unknown = options?.returnUrl
  if (typeof returnUrl !== 'string') throw new TypeError('embeddedCheckoutUrl: returnUrl must be a string')
  const returnProblem = returnUrlProblem(returnUrl)
  if (returnProblem !== undefined) throw new TypeError(`embeddedCheckoutUrl: returnUrl ${returnProblem}`)

  const { head, query, fragment } = splitUrl(gatewayUrl)
  const kept = (query ?? '').split('&').filter((pair) => {
    if (pair === '') return false
    const equals = pair.indexOf('=')
    return !REPLACED.has(decodeQueryComponent(equals === -1 ? pair : pair.slice(0, equals)))
  })
  kept.push(`${WEBVIEW_QUERY.returnUrl}=${encodeURIComponent(returnUrl)}`, `${WEBVIEW_QUERY.preferUniversalLinks}=1`)
  return `${head}?${kept.join('&')}${fragment === undefined ? '' : `#${fragment}`}`
}
