// Outbound HTTPS that reaches public internet addresses only (server-side request forgery): each URL's host
// is checked (an IP literal directly, a name by resolving it once and checking every answer), and the
// connection goes to exactly the address that was checked, so a second DNS answer (rebinding) is never
// consulted. Used by the logo fetcher and the webhook sender (docs/decisions/0019).
import dns from 'node:dns'
import net from 'node:net'
import tls from 'node:tls'
import { Agent, buildConnector } from 'undici'
import { type AddressPolicy, addressProblem, hostNameProblem, hostOf, refusedRange } from './public-address.ts'

export type LookupAll = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>

/** Why a URL may not be requested, worded for the partner (it becomes an issue's message). */
export class TargetRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TargetRefused'
  }
}

export const defaultLookup: LookupAll = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true })
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
}

export type PinnedOptions = {
  policy: AddressPolicy
  lookup: LookupAll
  /** Extra trusted CAs (PEM) besides Node's bundled roots, for tests; production uses NODE_EXTRA_CA_CERTS. */
  ca?: string[] | undefined
  connectTimeoutMs: number
  /** Test hook: called with the address and port about to be dialled; throwing prevents the connection. */
  onDial?: ((address: string, port: number) => void) | undefined
  /** What the URL is, in messages: "the logo URL must use https". */
  label: string
}

/**
 * One request's worth of pinned connections: `check` each URL before requesting it (every redirect hop
 * too), then request it through `dispatcher`, which dials only checked addresses. Destroy it afterwards.
 */
export function pinnedConnections(options: PinnedOptions) {
  const checked = new Map<string, string>()
  const connector = connectorFor(options)
  const dispatcher = new Agent({
    connect(connectOptions, callback) {
      dialChecked(connector, options, checked.get(connectOptions.hostname), connectOptions, callback)
    },
  })

  return {
    dispatcher,
    /** Refuses (TargetRefused) a URL that is not HTTPS to a public address; otherwise records what to dial. */
    async check(url: URL, signal: AbortSignal): Promise<void> {
      const { hostname, address } = await checkTarget(url, signal, options)
      checked.set(hostname, address)
    },
    destroy(): void {
      dispatcher.destroy().catch(() => {})
    },
  }
}

/**
 * Keep-alive connections for a sender of many requests (webhook attempts): `dispatcherFor` checks each URL
 * as `pinnedConnections.check` does, every time, and answers with the pool of connections to the host name
 * at the address this check found; a pool dials that address only. A connection is thus only ever reused
 * to an address that passed a check for its host name, and a name that now resolves elsewhere gets a new
 * pool. Idle connections close after a few seconds (undici's keep-alive); the least recently used pools
 * beyond `maxPools` are closed once their requests end.
 */
export function pinnedPools(options: PinnedOptions & { maxPools?: number }) {
  const connector = connectorFor(options)
  const maxPools = options.maxPools ?? 1_000
  const pools = new Map<string, Agent>()
  return {
    async dispatcherFor(url: URL, signal: AbortSignal): Promise<Agent> {
      const { hostname, address } = await checkTarget(url, signal, options)
      const key = `${hostname} ${address}`
      const pool =
        pools.get(key) ??
        new Agent({
          connect(connectOptions, callback) {
            dialChecked(connector, options, connectOptions.hostname === hostname ? address : undefined, connectOptions, callback)
          },
        })
      // Most recently used last, so the first is the one to close.
      pools.delete(key)
      pools.set(key, pool)
      for (const [oldKey, old] of pools) {
        if (pools.size <= maxPools) break
        pools.delete(oldKey)
        old.close().catch(() => {})
      }
      return pool
    },
    /** Closes every pool once its requests end. */
    async close(): Promise<void> {
      const open = [...pools.values()]
      pools.clear()
      await Promise.all(open.map((pool) => pool.close().catch(() => {})))
    },
  }
}

// A TLS context of Node's ~150 roots and the extra CAs costs some 40 ms of CPU to build: once per list of
// extra CAs (a fetcher or a sender keeps one for its life), not once per connection.
const contexts = new WeakMap<string[], tls.SecureContext>()

function connectorFor(options: PinnedOptions): buildConnector.connector {
  let secureContext: tls.SecureContext | undefined
  if (options.ca) {
    secureContext = contexts.get(options.ca) ?? tls.createSecureContext({ ca: [...tls.rootCertificates, ...options.ca] })
    contexts.set(options.ca, secureContext)
  }
  return buildConnector({ ...(secureContext ? { secureContext } : {}), rejectUnauthorized: true, timeout: options.connectTimeoutMs })
}

/** Dials `address`, the one checked for the request's host name, or refuses when none was. */
function dialChecked(
  connector: buildConnector.connector,
  options: PinnedOptions,
  address: string | undefined,
  connectOptions: buildConnector.Options,
  callback: buildConnector.Callback,
): void {
  const { hostname, protocol, port } = connectOptions
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
}

/**
 * Refuses (TargetRefused) a URL that is not HTTPS to a public address; otherwise answers the host name as
 * undici will ask for it and the address to dial for it.
 */
async function checkTarget(url: URL, signal: AbortSignal, options: PinnedOptions): Promise<{ hostname: string; address: string }> {
  if (url.protocol !== 'https:') throw new TargetRefused(`the ${options.label} must use https`)
  if (url.username !== '' || url.password !== '') {
    throw new TargetRefused(`the ${options.label} must not contain a user name or password`)
  }
  const literal = hostOf(url)
  if (literal !== undefined) {
    const problem = addressProblem(literal, options.policy)
    if (problem) throw new TargetRefused(problem)
    return { hostname: literal, address: literal }
  }
  const hostname = url.hostname
  const nameProblem = hostNameProblem(hostname, options.policy)
  if (nameProblem) throw new TargetRefused(nameProblem)
  let answers: Awaited<ReturnType<LookupAll>>
  try {
    answers = await untilAborted(options.lookup(hostname), signal)
  } catch (error) {
    if (signal.aborted) throw error
    throw new TargetRefused(`${hostname} does not resolve`)
  }
  const [first] = answers
  if (first === undefined) throw new TargetRefused(`${hostname} does not resolve`)
  // Every answer must be public, not just the one dialled: a name answering [public, private] is refused.
  for (const { address } of answers) {
    if (net.isIP(address) === 0) throw new TargetRefused(`${hostname} does not resolve to an IP address`)
    const range = refusedRange(address, options.policy)
    // The range, not the address: the partner learns why, not what Till's resolver knows of other hosts.
    if (range !== undefined) throw new TargetRefused(`${hostname} resolves to a ${range} address, not a public one`)
  }
  return { hostname, address: first.address }
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

/** An error's message with its cause's, for "could not reach …" messages. */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error.message}${cause}`
}
