// Fetches a merchant's logo from the partner-given iconUrl, reaching nothing but public internet addresses
// (server-side request forgery): HTTPS only; every host checked before it is dialled, and the connection made
// to exactly the address that was checked (a second DNS answer is never consulted); redirects followed by hand
// and re-checked at every hop; no compressed bodies; a size cap counted while streaming; one deadline overall.
import dns from 'node:dns'
import net from 'node:net'
import tls from 'node:tls'
import { Agent, buildConnector, request } from 'undici'
import { addressProblem, hostNameProblem, hostOf, refusedRange } from './address.ts'
import { LogoRefused } from './refusal.ts'

export type LookupAll = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>

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

const defaultLookup: LookupAll = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true })
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
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
  const ca = options.ca ? [...tls.rootCertificates, ...options.ca] : undefined

  return async function fetchLogo(input: string): Promise<FetchedLogo> {
    const deadline = new AbortController()
    const timer = setTimeout(() => deadline.abort(), timeoutMs)
    const abort = () => deadline.abort()
    options.signal?.addEventListener('abort', abort, { once: true })
    if (options.signal?.aborted) abort()

    // The address checked for each host, by the host as undici hands it to the connector. Only these are dialled.
    const checked = new Map<string, string>()
    const connector = buildConnector({ ...(ca ? { ca } : {}), rejectUnauthorized: true, timeout: timeoutMs })
    const agent = new Agent({
      connect(connectOptions, callback) {
        const { hostname, protocol, port } = connectOptions
        const address = checked.get(hostname)
        if (protocol !== 'https:' || address === undefined) {
          callback(new Error(`${hostname} was not checked before connecting`), null)
          return
        }
        const portNumber = Number(port) || 443
        try {
          options.onDial?.(address, portNumber)
        } catch (error) {
          callback(error instanceof Error ? error : new Error(String(error)), null)
          return
        }
        // Dial the checked address; SNI and the certificate check use the host name (none for an IP literal).
        connector({ ...connectOptions, hostname: address, servername: net.isIP(hostname) ? '' : hostname }, callback)
      },
    })

    const check = async (url: URL): Promise<void> => {
      if (url.protocol !== 'https:') throw new LogoRefused('the logo URL must use https')
      if (url.username !== '' || url.password !== '') throw new LogoRefused('the logo URL must not contain a user name or password')
      const literal = hostOf(url)
      if (literal !== undefined) {
        const problem = addressProblem(literal, policy)
        if (problem) throw new LogoRefused(problem)
        checked.set(literal, literal)
        return
      }
      const hostname = url.hostname
      const nameProblem = hostNameProblem(hostname, policy)
      if (nameProblem) throw new LogoRefused(nameProblem)
      let answers: Awaited<ReturnType<LookupAll>>
      try {
        answers = await untilAborted(lookup(hostname), deadline.signal)
      } catch (error) {
        if (deadline.signal.aborted) throw error
        throw new LogoRefused(`${hostname} does not resolve`)
      }
      if (answers.length === 0) throw new LogoRefused(`${hostname} does not resolve`)
      // Every answer must be public, not just the one dialled: a name answering [public, private] is refused.
      for (const { address } of answers) {
        if (net.isIP(address) === 0) throw new LogoRefused(`${hostname} does not resolve to an IP address`)
        const range = refusedRange(address, policy)
        if (range !== undefined) throw new LogoRefused(`${hostname} resolves to ${address}, which is not a public address (${range})`)
      }
      checked.set(hostname, answers[0]!.address)
    }

    try {
      let url = parseUrl(input)
      for (let redirects = 0; ; ) {
        await check(url)
        deadline.signal.throwIfAborted()
        const { statusCode, headers, body } = await request(url, {
          dispatcher: agent,
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
      if (deadline.signal.aborted) throw new LogoRefused(`the logo server did not answer within ${timeoutMs / 1000} s`)
      throw new LogoRefused(`could not reach the logo server: ${reason(error)}`)
    } finally {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', abort)
      agent.destroy().catch(() => {})
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

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error.message}${cause}`
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason)
      return
    }
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
