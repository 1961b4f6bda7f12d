// The logo fetcher against a real HTTPS server on 127.0.0.1 with a certificate made at run time. Nothing here
// leaves loopback: public names are injected DNS answers pointing at 127.0.0.1 (in the sandbox), and the SSRF
// corpus proves, by the server's connection counter and the dial hook, that a refused URL contacts nothing.
import type { AddressInfo } from 'node:net'
import https from 'node:https'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { gzipSync } from 'node:zlib'
import { selfSignedCertificate } from '../../test/certificate.ts'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type LogoFetchOptions, type LookupAll, logoFetcher } from './fetch.ts'
import { LogoRefused } from './refusal.ts'

const LOGO = Buffer.from('\x89PNG\r\n\x1a\n not really a png, any bytes will do', 'latin1')
const MB = 1024 * 1024

let server: https.Server
let port = 0
let cert = ''
let connections = 0
let requests: { path: string; headers: IncomingMessage['headers']; servername: string | false | undefined }[] = []
let onRequestSeen: (() => void) | undefined

const certificate = () => selfSignedCertificate(['localhost', 'logos.acme-cdn.com', 'media.acme-cdn.com', 'rebind.acme-cdn.com'])

function chunked(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { 'content-type': 'image/png' })
  const chunk = Buffer.alloc(64 * 1024, 0x61)
  let left = bytes
  const pump = (): void => {
    while (left > 0) {
      const part = chunk.subarray(0, Math.min(left, chunk.length))
      left -= part.length
      if (!res.write(part)) {
        res.once('drain', pump)
        return
      }
    }
    res.end()
  }
  pump()
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  res.on('error', () => {})
  const url = new URL(req.url ?? '/', 'https://server.invalid')
  const servername = (req.socket as unknown as { servername?: string | false }).servername
  requests.push({ path: url.pathname + url.search, headers: req.headers, servername })
  const chain = /^\/chain\/(\d+)$/.exec(url.pathname)
  if (chain) {
    const left = Number(chain[1])
    if (left === 0) res.writeHead(200, { 'content-type': 'image/png' }).end(LOGO)
    else res.writeHead(302, { location: `/chain/${left - 1}` }).end('moved')
    return
  }
  switch (url.pathname) {
    case '/x.png':
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': LOGO.length }).end(LOGO)
      return
    case '/to':
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('u') ?? '' }).end()
      return
    case '/nowhere':
      res.writeHead(302).end()
      return
    case '/length':
      // Headers only, the body never comes: refusing here proves the body was not waited for.
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': url.searchParams.get('bytes') ?? '0' })
      res.flushHeaders()
      return
    case '/chunked':
      chunked(res, Number(url.searchParams.get('bytes')))
      return
    case '/gzip':
      res.writeHead(200, { 'content-type': 'image/png', 'content-encoding': 'gzip' }).end(gzipSync(LOGO))
      return
    case '/hang':
      onRequestSeen?.()
      return
    case '/trickle':
      res.writeHead(200, { 'content-type': 'image/png' })
      res.write(LOGO, () => onRequestSeen?.())
      return
    default:
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such logo')
  }
}

beforeAll(async () => {
  const pems = await certificate()
  cert = pems.cert
  server = https.createServer({ key: pems.key, cert: pems.cert }, handle)
  server.on('connection', () => {
    connections++
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

beforeEach(() => {
  connections = 0
  requests = []
  onRequestSeen = undefined
})

/** A fetcher with recorded dials and lookups, trusting the test certificate. */
function fetcherWith(options: Partial<LogoFetchOptions> & { dns?: Record<string, string[] | string[][]> }) {
  const dials: [string, number][] = []
  const lookups: string[] = []
  const answered = new Map<string, number>()
  const { dns = {}, ...rest } = options
  const lookup: LookupAll = async (hostname) => {
    lookups.push(hostname)
    const entry = dns[hostname]
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    // A list of lists answers differently on each lookup (rebinding); a flat list always the same.
    const times = answered.get(hostname) ?? 0
    answered.set(hostname, times + 1)
    const addresses = Array.isArray(entry[0]) ? (entry as string[][])[Math.min(times, entry.length - 1)]! : (entry as string[])
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  const fetchLogo = logoFetcher({
    allowLoopback: false,
    ca: [cert],
    lookup,
    onDial: (address, dialPort) => {
      dials.push([address, dialPort])
    },
    ...rest,
  })
  return { fetchLogo, dials, lookups }
}

async function refusal(promise: Promise<unknown>): Promise<LogoRefused> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(LogoRefused)
  return error as LogoRefused
}

const at = (path: string): string => `https://127.0.0.1:${port}${path}`

describe('accepted', () => {
  it('fetches a plain 200 body from 127.0.0.1 in the sandbox, with the expected request headers', async () => {
    const { fetchLogo, dials, lookups } = fetcherWith({ allowLoopback: true })
    const logo = await fetchLogo(at('/x.png'))
    expect(logo.bytes.equals(LOGO)).toBe(true)
    expect(logo.url).toBe(at('/x.png'))
    expect(dials).toEqual([['127.0.0.1', port]])
    expect(lookups).toEqual([])
    expect(connections).toBe(1)
    expect(requests).toHaveLength(1)
    expect(requests[0]!.headers).toMatchObject({
      'accept-encoding': 'identity',
      accept: 'image/avif,image/webp,image/png,image/jpeg',
      'user-agent': 'Till-logo-fetcher',
    })
    // An IP literal sends no SNI; the certificate was checked against its IP SAN.
    expect(requests[0]!.servername).toBeFalsy()
  })

  it('fetches from a public host name (its one DNS answer dialled), with SNI and the certificate check on the name', async () => {
    const { fetchLogo, dials, lookups } = fetcherWith({ allowLoopback: true, dns: { 'logos.acme-cdn.com': ['127.0.0.1'] } })
    const logo = await fetchLogo(`https://logos.acme-cdn.com:${port}/x.png`)
    expect(logo.bytes.equals(LOGO)).toBe(true)
    expect(logo.url).toBe(`https://logos.acme-cdn.com:${port}/x.png`)
    expect(lookups).toEqual(['logos.acme-cdn.com'])
    expect(dials).toEqual([['127.0.0.1', port]])
    expect(requests[0]!.servername).toBe('logos.acme-cdn.com')
    expect(requests[0]!.headers.host).toBe(`logos.acme-cdn.com:${port}`)
  })

  it('lets localhost itself through in the sandbox', async () => {
    const { fetchLogo, dials } = fetcherWith({ allowLoopback: true, dns: { localhost: ['127.0.0.1'] } })
    const logo = await fetchLogo(`https://localhost:${port}/x.png`)
    expect(logo.bytes.equals(LOGO)).toBe(true)
    expect(dials).toEqual([['127.0.0.1', port]])
  })

  it('verifies the certificate against the host name: a name the certificate does not cover is refused', async () => {
    const { fetchLogo } = fetcherWith({ allowLoopback: true, dns: { 'logos.other-cdn.net': ['127.0.0.1'] } })
    const error = await refusal(fetchLogo(`https://logos.other-cdn.net:${port}/x.png`))
    expect(error.message).toMatch(/^could not reach the logo server: .*logos\.other-cdn\.net.*altnames/)
  })

  it('never turns TLS verification off: a certificate no CA vouches for is refused', async () => {
    const { fetchLogo } = fetcherWith({ allowLoopback: true, ca: undefined })
    const error = await refusal(fetchLogo(at('/x.png')))
    expect(error.message).toMatch(/^could not reach the logo server: .*self[- ]signed certificate/)
  })

  it('accepts a body of exactly maxBytes sent without Content-Length', async () => {
    const { fetchLogo } = fetcherWith({ allowLoopback: true, maxBytes: 1024 })
    const logo = await fetchLogo(at('/chunked?bytes=1024'))
    expect(logo.bytes.length).toBe(1024)
  })
})

describe('redirects', () => {
  it.each([1, 2, 3])('follows %i redirect(s), re-checking each hop', async (hops) => {
    const { fetchLogo, dials } = fetcherWith({ allowLoopback: true })
    const logo = await fetchLogo(at(`/chain/${hops}`))
    expect(logo.bytes.equals(LOGO)).toBe(true)
    expect(logo.url).toBe(at('/chain/0'))
    expect(requests.map((r) => r.path)).toEqual(Array.from({ length: hops + 1 }, (_, i) => `/chain/${hops - i}`))
    expect(dials.every(([address, dialPort]) => address === '127.0.0.1' && dialPort === port)).toBe(true)
  })

  it('refuses a fourth redirect', async () => {
    const { fetchLogo } = fetcherWith({ allowLoopback: true })
    const error = await refusal(fetchLogo(at('/chain/4')))
    expect(error.message).toBe('the logo URL redirected more than 3 times')
    expect(requests).toHaveLength(4)
  })

  it.each([301, 302, 303, 307, 308])('follows a %i to another host, resolved and checked for that hop', async (status) => {
    const target = `https://media.acme-cdn.com:${port}/x.png`
    const { fetchLogo, dials, lookups } = fetcherWith({ allowLoopback: true, dns: { 'media.acme-cdn.com': ['127.0.0.1'] } })
    const logo = await fetchLogo(at(`/to?status=${status}&u=${encodeURIComponent(target)}`))
    expect(logo.url).toBe(target)
    expect(lookups).toEqual(['media.acme-cdn.com'])
    expect(requests.at(-1)!.servername).toBe('media.acme-cdn.com')
    expect(dials.every(([address]) => address === '127.0.0.1')).toBe(true)
  })

  it('refuses a redirect without a Location', async () => {
    const { fetchLogo } = fetcherWith({ allowLoopback: true })
    const error = await refusal(fetchLogo(at('/nowhere')))
    expect(error.message).toBe('the logo server answered 302 without a Location')
  })

  it.each([
    ['https://10.0.0.1/x.png', '10.0.0.1 is not a public address (private)'],
    ['https://2852039166/latest/meta-data/', '169.254.169.254 is not a public address (linkLocal)'],
    ['https://[::ffff:10.0.0.1]/', '::ffff:a00:1 is not a public address (ipv4Mapped)'],
    ['https://[fd00::1]/', 'fd00::1 is not a public address (uniqueLocal)'],
    ['http://127.0.0.1:PORT/x.png', 'the logo URL must use https'],
    ['gopher://127.0.0.1:6379/_INFO', 'the logo URL must use https'],
    ['https://private.acme-cdn.com/x.png', 'private.acme-cdn.com resolves to a private address, not a public one'],
    ['https://multi.acme-cdn.com/x.png', 'multi.acme-cdn.com resolves to a private address, not a public one'],
    ['https://printer.local/x.png', 'printer.local is not a public host name'],
    ['https://user:secret@127.0.0.1:PORT/x.png', 'the logo URL must not contain a user name or password'],
  ])('refuses a redirect to %s without dialling it', async (target, message) => {
    const { fetchLogo, dials } = fetcherWith({
      allowLoopback: true,
      dns: { 'private.acme-cdn.com': ['10.0.0.5'], 'multi.acme-cdn.com': ['127.0.0.1', '192.168.0.7'] },
    })
    const location = encodeURIComponent(target.replace('PORT', String(port)))
    const error = await refusal(fetchLogo(at(`/to?u=${location}`)))
    expect(error.message).toBe(message)
    expect(dials).toEqual([['127.0.0.1', port]])
    expect(connections).toBe(1)
    expect(requests).toHaveLength(1)
  })

  it('looks a name up once per hop and re-checks it: a same-host redirect after the name rebinds to a private address is refused', async () => {
    const { fetchLogo, dials, lookups } = fetcherWith({
      allowLoopback: true,
      dns: { 'rebind.acme-cdn.com': [['127.0.0.1'], ['10.0.0.1']] },
    })
    const error = await refusal(fetchLogo(`https://rebind.acme-cdn.com:${port}/chain/1`))
    expect(error.message).toBe('rebind.acme-cdn.com resolves to a private address, not a public one')
    expect(lookups).toEqual(['rebind.acme-cdn.com', 'rebind.acme-cdn.com'])
    expect(dials).toEqual([['127.0.0.1', port]])
  })
})

describe('rebinding', () => {
  it('dials the address it checked, never a second DNS answer', async () => {
    const { fetchLogo, dials, lookups } = fetcherWith({
      allowLoopback: true,
      dns: { 'rebind.acme-cdn.com': [['127.0.0.1'], ['10.0.0.1']] },
    })
    const logo = await fetchLogo(`https://rebind.acme-cdn.com:${port}/x.png`)
    expect(logo.bytes.equals(LOGO)).toBe(true)
    expect(lookups).toEqual(['rebind.acme-cdn.com'])
    expect(dials).toEqual([['127.0.0.1', port]])
    expect(requests[0]!.servername).toBe('rebind.acme-cdn.com')
  })

  it('outside the sandbox too: a name that answers public then loopback is dialled at the public answer only', async () => {
    // The dial hook throws, so even the checked public address is never contacted.
    const dialled: [string, number][] = []
    const { fetchLogo, lookups } = fetcherWith({
      dns: { 'rebind.acme-cdn.com': [['93.184.215.14'], ['127.0.0.1']] },
      onDial: (address, dialPort) => {
        dialled.push([address, dialPort])
        throw new Error('test: not leaving the machine')
      },
    })
    const error = await refusal(fetchLogo(`https://rebind.acme-cdn.com:${port}/x.png`))
    expect(error.message).toBe('could not reach the logo server: test: not leaving the machine')
    expect(lookups).toEqual(['rebind.acme-cdn.com'])
    expect(dialled).toEqual([['93.184.215.14', port]])
    expect(connections).toBe(0)
  })
})

describe('body', () => {
  it('refuses a Content-Length over maxBytes before reading the body', async () => {
    const { fetchLogo } = fetcherWith({ allowLoopback: true, maxBytes: 1024 })
    const error = await refusal(fetchLogo(at('/length?bytes=1025')))
    expect(error.message).toBe('the logo is larger than 1 KB')
  })

  it('refuses a Content-Length over the default 2 MB before reading the body', async () => {
    const { fetchLogo } = fetcherWith({ allowLoopback: true })
    const error = await refusal(fetchLogo(at(`/length?bytes=${2 * MB + 1}`)))
    expect(error.message).toBe('the logo is larger than 2 MB')
  })

  it('refuses a chunked body over maxBytes while streaming', async () => {
    const { fetchLogo } = fetcherWith({ allowLoopback: true, maxBytes: 1024 })
    const error = await refusal(fetchLogo(at('/chunked?bytes=1025')))
    expect(error.message).toBe('the logo is larger than 1 KB')
  })

  it('refuses a chunked body over the default 2 MB while streaming', async () => {
    const { fetchLogo } = fetcherWith({ allowLoopback: true })
    const error = await refusal(fetchLogo(at(`/chunked?bytes=${2 * MB + 1}`)))
    expect(error.message).toBe('the logo is larger than 2 MB')
  })

  it('refuses a gzip body', async () => {
    const { fetchLogo } = fetcherWith({ allowLoopback: true })
    const error = await refusal(fetchLogo(at('/gzip')))
    expect(error.message).toBe('the logo server sent a compressed body (gzip); Till asks for identity encoding')
  })

  it('refuses a 404', async () => {
    const { fetchLogo } = fetcherWith({ allowLoopback: true })
    const error = await refusal(fetchLogo(at('/missing.png')))
    expect(error.message).toBe('the logo server answered 404')
  })
})

describe('deadline', () => {
  it('gives up on a server that never answers', async () => {
    const seen = new Promise<void>((resolve) => {
      onRequestSeen = resolve
    })
    const controller = new AbortController()
    const { fetchLogo } = fetcherWith({ allowLoopback: true, signal: controller.signal })
    const fetching = refusal(fetchLogo(at('/hang')))
    await seen
    controller.abort()
    expect((await fetching).message).toBe('the logo server did not answer within 10 s')
  })

  it('gives up on a body that never ends', async () => {
    const seen = new Promise<void>((resolve) => {
      onRequestSeen = resolve
    })
    const controller = new AbortController()
    const { fetchLogo } = fetcherWith({ allowLoopback: true, signal: controller.signal, timeoutMs: 30_000 })
    const fetching = refusal(fetchLogo(at('/trickle')))
    await seen
    controller.abort()
    expect((await fetching).message).toBe('the logo server did not answer within 30 s')
  })

  it('covers DNS: a lookup that never answers is given up on', async () => {
    let looked: () => void = () => {}
    const lookedUp = new Promise<void>((resolve) => {
      looked = resolve
    })
    const controller = new AbortController()
    const { fetchLogo, dials } = fetcherWith({
      signal: controller.signal,
      lookup: () => {
        looked()
        return new Promise(() => {})
      },
    })
    const fetching = refusal(fetchLogo('https://slow-dns.acme-cdn.com/x.png'))
    await lookedUp
    controller.abort()
    expect((await fetching).message).toBe('the logo server did not answer within 10 s')
    expect(dials).toEqual([])
  })

  it('does not start once already aborted', async () => {
    const { fetchLogo, dials } = fetcherWith({ allowLoopback: true, signal: AbortSignal.abort() })
    const error = await refusal(fetchLogo(at('/x.png')))
    expect(error.message).toBe('the logo server did not answer within 10 s')
    expect(dials).toEqual([])
    expect(connections).toBe(0)
  })
})

// Every URL here is refused outside the sandbox without a TCP connection: `PORT` is the test server's port, so
// a loopback spelling that slipped through would be counted by the server.
const corpusDns: Record<string, string[]> = {
  'private.acme-cdn.com': ['10.0.0.5'],
  'loopback.acme-cdn.com': ['127.0.0.1'],
  'multi.acme-cdn.com': ['8.8.8.8', '127.0.0.1'],
  'mapped.acme-cdn.com': ['::ffff:127.0.0.1'],
  'metadata.acme-cdn.com': ['169.254.169.254'],
  'ula.acme-cdn.com': ['2606:4700:4700::1111', 'fd00::1'],
  'zero.acme-cdn.com': ['0.0.0.0'],
  'empty.acme-cdn.com': [],
}

const loopback = '127.0.0.1 is not a public address (loopback)'
const corpus: [url: string, message: string][] = [
  // Loopback, in every spelling WHATWG URL turns into 127.0.0.1 or ::1.
  ['https://127.0.0.1:PORT/x.png', loopback],
  ['https://127.1:PORT/x.png', loopback],
  ['https://0x7f.0.0.1:PORT/x.png', loopback],
  ['https://0x7f.1:PORT/x.png', loopback],
  ['https://0x7f000001:PORT/x.png', loopback],
  ['https://2130706433:PORT/x.png', loopback],
  ['https://0177.0.0.1:PORT/x.png', loopback],
  ['https://017700000001:PORT/x.png', loopback],
  ['https://127.000.000.001:PORT/x.png', loopback],
  ['https://127.255.255.254:PORT/x.png', '127.255.255.254 is not a public address (loopback)'],
  ['https://[::1]:PORT/x.png', '::1 is not a public address (loopback)'],
  ['https://[0:0:0:0:0:0:0:1]:PORT/x.png', '::1 is not a public address (loopback)'],
  ['https://[::ffff:127.0.0.1]:PORT/x.png', '::ffff:7f00:1 is not a public address (ipv4Mapped)'],
  ['https://[::ffff:7f00:1]:PORT/x.png', '::ffff:7f00:1 is not a public address (ipv4Mapped)'],
  ['https://[::127.0.0.1]:PORT/x.png', '::7f00:1 is not a public address (ipv4Compatible)'],
  ['https://[::7f00:1]:PORT/x.png', '::7f00:1 is not a public address (ipv4Compatible)'],
  // Unspecified: 0.0.0.0 and :: reach the local host on most systems.
  ['https://0.0.0.0:PORT/x.png', '0.0.0.0 is not a public address (unspecified)'],
  ['https://0:PORT/x.png', '0.0.0.0 is not a public address (unspecified)'],
  ['https://[::]:PORT/x.png', ':: is not a public address (unspecified)'],
  // Private networks, dotted and otherwise.
  ['https://10.0.0.1/x.png', '10.0.0.1 is not a public address (private)'],
  ['https://167772161/x.png', '10.0.0.1 is not a public address (private)'],
  ['https://0x0a000001/x.png', '10.0.0.1 is not a public address (private)'],
  ['https://172.16.0.1/x.png', '172.16.0.1 is not a public address (private)'],
  ['https://0xac100001/x.png', '172.16.0.1 is not a public address (private)'],
  ['https://172.31.255.255/x.png', '172.31.255.255 is not a public address (private)'],
  ['https://192.168.1.1/x.png', '192.168.1.1 is not a public address (private)'],
  ['https://3232235777/x.png', '192.168.1.1 is not a public address (private)'],
  ['https://0300.0250.1.1/x.png', '192.168.1.1 is not a public address (private)'],
  // Link-local, the cloud metadata endpoint above all.
  ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 is not a public address (linkLocal)'],
  ['https://2852039166/latest/meta-data/', '169.254.169.254 is not a public address (linkLocal)'],
  ['https://0xa9.0xfe.0xa9.0xfe/latest/meta-data/', '169.254.169.254 is not a public address (linkLocal)'],
  ['https://[fe80::1]/x.png', 'fe80::1 is not a public address (linkLocal)'],
  ['https://[fe80::1%25eth0]/x.png', 'the logo URL is not a valid URL'],
  // Other special-purpose IPv4 ranges.
  ['https://100.64.0.1/x.png', '100.64.0.1 is not a public address (carrierGradeNat)'],
  ['https://224.0.0.1/x.png', '224.0.0.1 is not a public address (multicast)'],
  ['https://255.255.255.255/x.png', '255.255.255.255 is not a public address (broadcast)'],
  ['https://240.0.0.1/x.png', '240.0.0.1 is not a public address (reserved)'],
  ['https://192.0.0.8/x.png', '192.0.0.8 is not a public address (reserved)'],
  ['https://192.0.2.1/x.png', '192.0.2.1 is not a public address (reserved)'],
  ['https://198.51.100.1/x.png', '198.51.100.1 is not a public address (reserved)'],
  ['https://203.0.113.1/x.png', '203.0.113.1 is not a public address (reserved)'],
  ['https://198.18.0.1/x.png', '198.18.0.1 is not a public address (reserved)'],
  // Special-purpose IPv6, including the translation prefixes that embed an IPv4 address.
  ['https://[fc00::1]/x.png', 'fc00::1 is not a public address (uniqueLocal)'],
  ['https://[fd12::1]/x.png', 'fd12::1 is not a public address (uniqueLocal)'],
  ['https://[fec0::1]/x.png', 'fec0::1 is not a public address (deprecatedSiteLocal)'],
  ['https://[ff02::1]/x.png', 'ff02::1 is not a public address (multicast)'],
  ['https://[2001:db8::1]/x.png', '2001:db8::1 is not a public address (reserved)'],
  ['https://[64:ff9b::a00:1]/x.png', '64:ff9b::a00:1 is not a public address (rfc6052)'],
  ['https://[64:ff9b::7f00:1]/x.png', '64:ff9b::7f00:1 is not a public address (rfc6052)'],
  ['https://[::ffff:0:7f00:1]/x.png', '::ffff:0:7f00:1 is not a public address (rfc6145)'],
  ['https://[2002:7f00:1::]/x.png', '2002:7f00:1:: is not a public address (6to4)'],
  ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x.png', '2001:0:4136:e378:8000:63bf:3fff:fdd2 is not a public address (teredo)'],
  ['https://[100::1]/x.png', '100::1 is not a public address (discard)'],
  ['https://[4000::1]/x.png', '4000::1 is not a public address (reserved)'],
  // Schemes other than https, and credentials.
  ['http://93.184.215.14/x.png', 'the logo URL must use https'],
  ['http://logos.acme-cdn.com/x.png', 'the logo URL must use https'],
  ['http://127.0.0.1:PORT/x.png', 'the logo URL must use https'],
  ['ftp://93.184.215.14/x.png', 'the logo URL must use https'],
  ['file:///etc/passwd', 'the logo URL must use https'],
  ['gopher://127.0.0.1:6379/_INFO', 'the logo URL must use https'],
  ['data:image/png;base64,iVBORw0KGgo=', 'the logo URL must use https'],
  ['https://user:secret@logos.acme-cdn.com/x.png', 'the logo URL must not contain a user name or password'],
  ['https://user@93.184.215.14/x.png', 'the logo URL must not contain a user name or password'],
  ['logo.png', 'the logo URL is not a valid URL'],
  // Names that are never public, refused before any lookup.
  ['https://localhost:PORT/x.png', 'localhost is not a public host name'],
  ['https://LOCALHOST.:PORT/x.png', 'localhost. is not a public host name'],
  ['https://foo.localhost:PORT/x.png', 'foo.localhost is not a public host name'],
  ['https://printer.local/x.png', 'printer.local is not a public host name'],
  ['https://intranet/x.png', 'intranet is not a public host name'],
  ['https://metadata.google.internal/computeMetadata/v1/', 'metadata.google.internal is not a public host name'],
  ['https://router.home.arpa/x.png', 'router.home.arpa is not a public host name'],
  ['https://logo.test/x.png', 'logo.test is not a public host name'],
  ['https://logo.invalid/x.png', 'logo.invalid is not a public host name'],
  ['https://cdn.logos.example/x.png', 'cdn.logos.example is not a public host name'],
  // Names whose DNS answers are not all public.
  ['https://private.acme-cdn.com/x.png', 'private.acme-cdn.com resolves to a private address, not a public one'],
  ['https://loopback.acme-cdn.com:PORT/x.png', 'loopback.acme-cdn.com resolves to a loopback address, not a public one'],
  ['https://multi.acme-cdn.com/x.png', 'multi.acme-cdn.com resolves to a loopback address, not a public one'],
  ['https://mapped.acme-cdn.com/x.png', 'mapped.acme-cdn.com resolves to a ipv4Mapped address, not a public one'],
  ['https://metadata.acme-cdn.com/x.png', 'metadata.acme-cdn.com resolves to a linkLocal address, not a public one'],
  ['https://ula.acme-cdn.com/x.png', 'ula.acme-cdn.com resolves to a uniqueLocal address, not a public one'],
  ['https://zero.acme-cdn.com/x.png', 'zero.acme-cdn.com resolves to a unspecified address, not a public one'],
  ['https://empty.acme-cdn.com/x.png', 'empty.acme-cdn.com does not resolve'],
  ['https://nxdomain.acme-cdn.com/x.png', 'nxdomain.acme-cdn.com does not resolve'],
]

describe('the SSRF corpus: refused, nothing contacted', () => {
  it('has at least 40 entries', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40)
  })

  it.each(corpus)('%s', async (url, message) => {
    const { fetchLogo, dials, lookups } = fetcherWith({ dns: corpusDns })
    const target = url.replace('PORT', String(port))
    const error = await refusal(fetchLogo(target))
    expect(error.message).toBe(message)
    expect(dials).toEqual([])
    expect(connections).toBe(0)
    expect(requests).toEqual([])
    // Only names that reach DNS are looked up, and each once.
    const host = URL.canParse(target) ? new URL(target).hostname : ''
    expect(lookups).toEqual(host in corpusDns || host.startsWith('nxdomain.') ? [host] : [])
  })
})
