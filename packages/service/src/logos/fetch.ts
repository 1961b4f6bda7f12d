// Fetches a merchant's logo from the partner-given iconUrl, reaching nothing but public internet addresses
// (server-side request forgery): HTTPS only; every host checked before it is dialled, and the connection made
// to exactly the address that was checked (a second DNS answer is never consulted); redirects followed by hand
// and re-checked at every hop; no compressed bodies; a size cap counted while streaming; one deadline overall.
import { request } from 'undici'
import { defaultLookup, type LookupAll, pinnedConnections, reasonOf, TargetRefused } from '../net/pinned.ts'
import { LogoRefused } from './refusal.ts'

export type { LookupAll }

export type LogoFetchOptions = {
  /** Sandbox: loopback hosts (127.0.0.0/8, ::1, localhost) are allowed; nothing else opens this. */
  allowLoopback: boolean
  /** DNS, injectable for tests; default: dns.promises.lookup(host, { all: true, verbatim: true }). */
  lookup?: LookupAll
  /**
   * Extra trusted CA certificates (PEM) for tests in-process, trusted besides Node's bundled roots; production
   * relies on NODE_EXTRA_CA_CERTS, which Node's default trust store already includes. TLS verification is never
   * turned off (not even by NODE_TLS_REJECT_UNAUTHORIZED).
   */
  ca?: string[]
  /** The whole fetch, including DNS, redirects and the body. Default 10 000. */
  timeoutMs?: number
  /** Default 2 MB. */
  maxBytes?: number
  /** Default 3. */
  maxRedirects?: number
  /** Test hook: aborts the fetch as the deadline would (so tests never wait for real time). */
  signal?: AbortSignal
  /**
   * Test hook: called with (address, port) right before each TCP connection is opened. If it throws, the
   * connection is not opened and the fetch fails as unreachable.
   */
  onDial?: (address: string, port: number) => void
}

export type FetchedLogo = {
  bytes: Buffer
  /** The final URL, after redirects. */
  url: string
}

const redirectStatuses = new Set([301, 302, 303, 307, 308])

const requestHeaders = {
  accept: 'image/avif,image/webp,image/png,image/jpeg',
  'accept-encoding': 'identity',
  'user-agent': 'Till-logo-fetcher',
}

export function logoFetcher(options: LogoFetchOptions): (url: string) => Promise<FetchedLogo> {
  const policy = { allowLoopback: options.allowLoopback }
  const lookup = options.lookup ?? defaultLookup
  const timeoutMs = options.timeoutMs ?? 10_000
  const maxBytes = options.maxBytes ?? 2 * 1024 * 1024
  const maxRedirects = options.maxRedirects ?? 3

  return async function fetchLogo(input: string): Promise<FetchedLogo> {
    const deadline = new AbortController()
    const timer = setTimeout(() => deadline.abort(), timeoutMs)
    const abort = () => deadline.abort()
    options.signal?.addEventListener('abort', abort, { once: true })
    if (options.signal?.aborted) abort()

    const connections = pinnedConnections({
      policy,
      lookup,
      ca: options.ca,
      connectTimeoutMs: timeoutMs,
      onDial: options.onDial,
      label: 'logo URL',
    })

    try {
      let url = parseUrl(input)
      for (let redirects = 0; ; ) {
        await connections.check(url, deadline.signal)
        deadline.signal.throwIfAborted()
        const { statusCode, headers, body } = await request(url, {
          dispatcher: connections.dispatcher,
          method: 'GET',
          headers: requestHeaders,
          signal: deadline.signal,
        })
        // Destroying an unread body emits an abort error; it is expected, not an uncaught exception.
        body.on('error', () => {})
        try {
          if (redirectStatuses.has(statusCode)) {
            const location = header(headers, 'location')
            if (location === undefined) throw new LogoRefused(`the logo server answered ${statusCode} without a Location`)
            if (redirects >= maxRedirects) throw new LogoRefused(`the logo URL redirected more than ${maxRedirects} times`)
            redirects++
            url = redirectTarget(location, url)
            continue
          }
          if (statusCode < 200 || statusCode > 299) throw new LogoRefused(`the logo server answered ${statusCode}`)
          const encoding = header(headers, 'content-encoding')
          if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity' && encoding.trim() !== '') {
            throw new LogoRefused(`the logo server sent a compressed body (${encoding}); Till asks for identity encoding`)
          }
          const length = header(headers, 'content-length')
          if (length !== undefined && Number(length) > maxBytes) throw new LogoRefused(`the logo is larger than ${size(maxBytes)}`)
          const chunks: Buffer[] = []
          let received = 0
          for await (const chunk of body as AsyncIterable<Buffer>) {
            received += chunk.length
            if (received > maxBytes) throw new LogoRefused(`the logo is larger than ${size(maxBytes)}`)
            chunks.push(chunk)
          }
          return { bytes: Buffer.concat(chunks, received), url: url.href }
        } finally {
          if (!body.destroyed) body.destroy()
        }
      }
    } catch (error) {
      if (error instanceof LogoRefused) throw error
      if (error instanceof TargetRefused) throw new LogoRefused(error.message)
      if (deadline.signal.aborted) throw new LogoRefused(`the logo server did not answer within ${timeoutMs / 1000} s`)
      throw new LogoRefused(`could not reach the logo server: ${reasonOf(error)}`)
    } finally {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', abort)
      connections.destroy()
    }
  }
}

function parseUrl(input: string): URL {
  try {
    return new URL(input)
  } catch {
    throw new LogoRefused('the logo URL is not a valid URL')
  }
}

function redirectTarget(location: string, base: URL): URL {
  try {
    return new URL(location, base)
  } catch {
    throw new LogoRefused('the logo server redirected to an invalid URL')
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

function size(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`
  if (bytes % 1024 === 0) return `${bytes / 1024} KB`
  return `${bytes} bytes`
}
