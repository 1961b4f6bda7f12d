// The few URL facts the host kit needs, read from the string itself. Not the global `URL`: React Native's is
// a partial polyfill (no `URL.canParse`, no error on garbage, a hostname only for http(s), and a query that is
// re-serialised once touched), and the kit must decide the same way in an app as in its tests on Node.

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/

/** Whether the string has what a URL handed over by a WebView never carries raw: controls, spaces, backslashes. */
function malformed(url: string): boolean {
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i)
    if (code <= 0x20 || code === 0x7f || code === 0x5c) return true
  }
  return false
}

/** The hosts on which plain http is accepted, for local development. */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** The URL's scheme in lower case, without the colon; undefined when the string is not an absolute URL. */
export function schemeOf(url: string): string | undefined {
  if (malformed(url)) return undefined
  return SCHEME.exec(url)?.[1]?.toLowerCase()
}

/** `head?query#fragment`: the query and the fragment without their `?` and `#`, undefined when absent. */
export function splitUrl(url: string): { head: string; query: string | undefined; fragment: string | undefined } {
  const hashAt = url.indexOf('#')
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt)
  const fragment = hashAt === -1 ? undefined : url.slice(hashAt + 1)
  const queryAt = beforeHash.indexOf('?')
  return queryAt === -1
    ? { head: beforeHash, query: undefined, fragment }
    : { head: beforeHash.slice(0, queryAt), query: beforeHash.slice(queryAt + 1), fragment }
}

const HOST_NAME = /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*\.?$/
const IPV6 = /^\[[0-9A-Fa-f:.]+\]$/

/**
 * The host (lower case; IPv6 in brackets) of a `scheme://host[:port]/…` URL, or undefined when it has no
 * such authority or its host or port is not well-formed. Strict on purpose: ASCII names and IP literals.
 */
export function hostOf(url: string): string | undefined {
  const scheme = schemeOf(url)
  if (scheme === undefined) return undefined
  const rest = url.slice(scheme.length + 1)
  if (!rest.startsWith('//')) return undefined
  const end = rest.slice(2).search(/[/?#]/)
  const authority = end === -1 ? rest.slice(2) : rest.slice(2, 2 + end)
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1)
  const portAt = hostAndPort.startsWith('[') ? hostAndPort.indexOf(']') + 1 : hostAndPort.indexOf(':')
  const host = portAt <= 0 ? hostAndPort : hostAndPort.slice(0, portAt)
  const port = portAt <= 0 || portAt === hostAndPort.length ? '' : hostAndPort.slice(portAt)
  if (port !== '' && !/^:\d{0,5}$/.test(port)) return undefined
  if (port.length > 1 && Number(port.slice(1)) > 65_535) return undefined
  if (!HOST_NAME.test(host) && !IPV6.test(host)) return undefined
  return host.toLowerCase()
}

/** An http URL to 127.0.0.1, localhost or [::1]. */
export function isLoopbackHttp(url: string): boolean {
  if (schemeOf(url) !== 'http') return false
  const host = hostOf(url)
  return host !== undefined && LOOPBACK_HOSTS.has(host)
}

/** Form-decodes one query component as URLSearchParams does; a malformed `%` escape stays as it is. */
export function decodeQueryComponent(raw: string): string {
  const spaced = raw.replaceAll('+', ' ')
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run)
      } catch {
        return run
      }
    })
  }
}

/** The first value of a query parameter, decoded (URLSearchParams' `get`); undefined when absent. */
export function queryParam(url: string, name: string): string | undefined {
  const { query } = splitUrl(url)
  if (query === undefined) return undefined
  for (const pair of query.split('&')) {
    if (pair === '') continue
    const equals = pair.indexOf('=')
    const key = decodeQueryComponent(equals === -1 ? pair : pair.slice(0, equals))
    if (key === name) return equals === -1 ? '' : decodeQueryComponent(pair.slice(equals + 1))
  }
  return undefined
}
