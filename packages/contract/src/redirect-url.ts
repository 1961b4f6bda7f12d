export const MAX_REDIRECT_URL_LENGTH = 2048

export type RedirectUrlResult = { ok: true; url: string } | { ok: false; reason: string }

// Control characters are refused rather than stripped: WHATWG parsing silently drops tabs and newlines,
// so the URL a merchant sees in their own config would differ from where buyers are sent.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F]/
const EDGE_WHITESPACE = /^\s|\s$/

function isLoopbackHost(hostname: string): boolean {
  // The WHATWG parser has already folded 127.1, 0x7f.0.0.1 and [0:0::1] into canonical form.
  const host = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (/^127\.[0-9]+\.[0-9]+\.[0-9]+$/.test(host)) return true
  if (host === '[::1]') return true
  // IPv4-mapped 127.0.0.0/8, which the parser serializes as [::ffff:7fXX:XXXX].
  return /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)
}

/**
 * Validates a merchant-supplied redirect (or logo) URL and returns its WHATWG-normalized form.
 * `allowLoopback` exists for local development and sandbox setups; production refuses loopback hosts.
 */
export function normalizeRedirectUrl(raw: unknown, options: { allowLoopback: boolean }): RedirectUrlResult {
  if (typeof raw !== 'string') return { ok: false, reason: 'must be a string' }
  if (raw.length > MAX_REDIRECT_URL_LENGTH) {
    return { ok: false, reason: `must be at most ${MAX_REDIRECT_URL_LENGTH} characters long` }
  }
  if (CONTROL_CHARACTER.test(raw)) return { ok: false, reason: 'must not contain control characters' }
  if (EDGE_WHITESPACE.test(raw)) return { ok: false, reason: 'must not start or end with whitespace' }
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, reason: 'must be an absolute URL' }
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'must use the https scheme' }
  if (url.hostname === '') return { ok: false, reason: 'must have a host' }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'must not contain credentials' }
  if (!options.allowLoopback && isLoopbackHost(url.hostname)) {
    return { ok: false, reason: 'must not point to a loopback host' }
  }
  // Punycode and percent-encoding can lengthen the URL past what was checked above.
  if (url.href.length > MAX_REDIRECT_URL_LENGTH) {
    return { ok: false, reason: `must be at most ${MAX_REDIRECT_URL_LENGTH} characters long once normalized` }
  }
  return { ok: true, url: url.href }
}

const PAYMENT_ID_PARAM = 'payment_id'

/** Decodes a query parameter name the way URLSearchParams would, so `payment%5Fid` is caught too. */
function paramName(segment: string): string {
  const eq = segment.indexOf('=')
  const rawName = (eq === -1 ? segment : segment.slice(0, eq)).replace(/\+/g, ' ')
  try {
    return decodeURIComponent(rawName)
  } catch {
    return rawName
  }
}

/**
 * Sets `payment_id` on a redirect URL by string surgery: re-serializing through URLSearchParams would
 * re-encode the merchant's other parameters (spaces, `~`, `'`), which can break their signatures.
 * Any `payment_id` already present is replaced, so the page never sends an ambiguous value.
 */
export function appendPaymentId(url: string, paymentId: string): string {
  const hashAt = url.indexOf('#')
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt)
  const fragment = hashAt === -1 ? '' : url.slice(hashAt)
  const ours = `${PAYMENT_ID_PARAM}=${encodeURIComponent(paymentId)}`

  const queryAt = beforeHash.indexOf('?')
  if (queryAt === -1) return `${beforeHash}?${ours}${fragment}`

  const base = beforeHash.slice(0, queryAt)
  const query = beforeHash.slice(queryAt + 1)
  const kept: string[] = []
  let replaced = false
  for (const segment of query.split('&')) {
    if (paramName(segment) !== PAYMENT_ID_PARAM) {
      kept.push(segment)
    } else if (!replaced) {
      kept.push(ours)
      replaced = true
    }
  }
  if (!replaced) {
    // An empty last segment (`?` or a trailing `&`) is a slot waiting for a parameter: fill it.
    if (kept.length > 0 && kept[kept.length - 1] === '') kept[kept.length - 1] = ours
    else kept.push(ours)
  }
  return `${base}?${kept.join('&')}${fragment}`
}

/**
 * Spec 4.2: redirects happen only when both URLs are valid; one bad or missing URL disables both, so the
 * buyer never lands on a success page after a failure or the other way round.
 */
export function resolveCheckoutRedirects(
  checkout: { successUrl?: unknown; errorUrl?: unknown } | null | undefined,
  options: { allowLoopback: boolean },
): { successUrl: string; errorUrl: string } | null {
  if (checkout == null) return null
  const success = normalizeRedirectUrl(checkout.successUrl, options)
  const error = normalizeRedirectUrl(checkout.errorUrl, options)
  return success.ok && error.ok ? { successUrl: success.url, errorUrl: error.url } : null
}
