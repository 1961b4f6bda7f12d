// Which addresses and host names Till's outbound requests (logo fetches, webhook deliveries) may reach:
// public internet only (plus loopback in the sandbox).
import net from 'node:net'
import ipaddr from 'ipaddr.js'

export type AddressPolicy = { allowLoopback: boolean }

// ipaddr.js calls these IPv6 ranges 'unicast', but they are not global unicast: ::/96 is the deprecated
// IPv4-compatible form (::7f00:1 is 127.0.0.1), and nothing outside 2000::/3 is assigned as public unicast.
const ipv4Compatible = ipaddr.parseCIDR('::/96')
const globalUnicast = ipaddr.parseCIDR('2000::/3')

/**
 * Why `ip` may not be dialled, or undefined when it may. Only what ipaddr.js calls 'unicast' passes (and, with
 * `allowLoopback`, 127.0.0.0/8 and ::1 exactly). `ip` must be a literal Node itself would dial as one
 * (`net.isIP`), so no other spelling can reach the socket than the one checked here.
 */
export function addressProblem(ip: string, policy: AddressPolicy): string | undefined {
  if (net.isIP(ip) === 0 || !ipaddr.isValid(ip)) return `${ip} is not an IP address`
  const range = refusedRange(ip, policy)
  return range === undefined ? undefined : `${ip} is not a public address (${range})`
}

/**
 * The name of the non-public range an IP literal (one `net.isIP` accepts) falls in (`private`, `loopback`,
 * `zone id`, …), or undefined if it may be dialled.
 */
export function refusedRange(ip: string, policy: AddressPolicy): string | undefined {
  if (net.isIPv6(ip)) {
    if (ip.includes('%')) return 'zone id'
    // ipaddr.js reads the deprecated `::a.b.c.d` as `::ffff:a.b.c.d`, where Node dials `::a.b.c.d` (`::7f00:1`):
    // classify the address in the hexadecimal form WHATWG URL (and Node) give it.
    ip = new URL(`https://[${ip}]/`).hostname.slice(1, -1)
  }
  const range = rangeOf(ipaddr.parse(ip))
  if (range === 'unicast') return undefined
  if (range === 'loopback' && policy.allowLoopback) return undefined
  return range
}

function rangeOf(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  const range = address.range()
  if (range !== 'unicast' || address.kind() !== 'ipv6') return range
  const v6 = address as ipaddr.IPv6
  if (v6.match(ipv4Compatible)) return 'ipv4Compatible'
  if (!v6.match(globalUnicast)) return 'reserved'
  return range
}

/**
 * The IP literal a URL names (IPv6 without its brackets), or undefined for a host name. WHATWG URL parsing has
 * already turned every IPv4 spelling (`0x7f.1`, `2130706433`, `0177.0.0.1`, `127.1`) into dotted decimal and
 * refused IPv6 zone ids, so a host that is not a literal here is a name for DNS.
 */
export function hostOf(url: URL): string | undefined {
  const host = url.hostname
  if (host.startsWith('[') && host.endsWith(']')) return host.slice(1, -1)
  if (net.isIPv4(host)) return host
  return undefined
}

// Names that never belong to the public internet: special-use (RFC 6761, 6762, 8375, 9476), ICANN's private-use
// `.internal`, and the conventional intranet suffixes RFC 6762 (appendix G) lists.
const privateSuffixes = [
  'localhost',
  'local',
  'internal',
  'test',
  'invalid',
  'example',
  'home.arpa',
  'onion',
  'alt',
  'localdomain',
  'lan',
  'home',
  'corp',
  'intranet',
  'private',
]

/**
 * Why the host name may not be looked up, or undefined when it may: single labels (`intranet`) and special-use
 * or intranet suffixes are refused before any DNS query; with `allowLoopback`, `localhost` itself is allowed.
 */
export function hostNameProblem(hostname: string, policy: AddressPolicy): string | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, '')
  if (policy.allowLoopback && name === 'localhost') return undefined
  const labels = name.split('.')
  if (labels.length < 2 || labels.some((label) => label === '')) return `${hostname} is not a public host name`
  if (privateSuffixes.some((suffix) => name === suffix || name.endsWith(`.${suffix}`))) return `${hostname} is not a public host name`
  return undefined
}
