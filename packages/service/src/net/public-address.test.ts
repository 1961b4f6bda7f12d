import { describe, expect, it } from 'vitest'
import { addressProblem, hostNameProblem, hostOf } from './public-address.ts'

const strict = { allowLoopback: false }
const sandbox = { allowLoopback: true }

describe('addressProblem', () => {
  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:830::200e',
  ])('lets public %s through', (ip) => {
    expect(addressProblem(ip, strict)).toBeUndefined()
    expect(addressProblem(ip, sandbox)).toBeUndefined()
  })

  it.each(['127.0.0.1', '127.8.9.10', '127.255.255.255', '::1', '0:0:0:0:0:0:0:1'])(
    'lets loopback %s through only in the sandbox',
    (ip) => {
      expect(addressProblem(ip, sandbox)).toBeUndefined()
      expect(addressProblem(ip, strict)).toBe(`${ip} is not a public address (loopback)`)
    },
  )

  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.51.100.1', 'reserved'],
    ['203.0.113.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['192.31.196.1', 'as112'],
    ['192.52.193.1', 'amt'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'ipv4Mapped'],
    ['::ffff:7f00:1', 'ipv4Mapped'],
    ['::ffff:10.0.0.1', 'ipv4Mapped'],
    ['::ffff:8.8.8.8', 'ipv4Mapped'],
    ['::127.0.0.1', 'ipv4Compatible'],
    ['::7f00:1', 'ipv4Compatible'],
    ['::8.8.8.8', 'ipv4Compatible'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['64:ff9b:1::1', 'rfc6052'],
    ['::ffff:0:a00:1', 'rfc6145'],
    ['2002:7f00:1::', '6to4'],
    ['2001::1', 'teredo'],
    ['2001:2::1', 'benchmarking'],
    ['100::1', 'discard'],
    ['5f00::1', 'segmentRouting'],
    ['4000::1', 'reserved'],
    ['1::1', 'reserved'],
  ])('refuses %s (%s)', (ip, range) => {
    expect(addressProblem(ip, strict)).toBe(`${ip} is not a public address (${range})`)
    expect(addressProblem(ip, sandbox)).toBe(`${ip} is not a public address (${range})`)
  })

  it.each(['::ffff:127.0.0.1', '::127.0.0.1', '::ffff:7f00:1'])(
    'refuses %s even in the sandbox: only 127.0.0.0/8 and ::1 are loopback',
    (ip) => {
      expect(addressProblem(ip, sandbox)).toMatch(/is not a public address/)
    },
  )

  it.each([
    ['fe80::1%eth0', sandbox],
    ['fe80::1%1', strict],
    ['2606:4700:4700::1111%eth0', strict],
    ['::1%lo', sandbox],
  ] as const)('refuses the zoned %s', (ip, policy) => {
    expect(addressProblem(ip, policy)).toBe(`${ip} is not a public address (zone id)`)
  })

  it.each([
    'localhost',
    'example.com',
    '',
    ' 8.8.8.8',
    '127.1',
    '0x7f000001',
    '2130706433',
    '0177.0.0.1',
    '127.000.000.001',
    '1.2.3.4.5',
    '256.0.0.1',
    '[::1]',
    '::1::',
    '8.8.8.8:443',
  ])('refuses %j, which is not an IP literal Node would dial as such', (text) => {
    expect(addressProblem(text, sandbox)).toBe(`${text} is not an IP address`)
  })
})

describe('hostOf', () => {
  it.each([
    ['https://93.184.215.14/', '93.184.215.14'],
    ['https://127.0.0.1:8443/x.png', '127.0.0.1'],
    ['https://127.1/', '127.0.0.1'],
    ['https://0x7f.1/', '127.0.0.1'],
    ['https://0x7f.0.0.1/', '127.0.0.1'],
    ['https://0x7f000001/', '127.0.0.1'],
    ['https://2130706433/', '127.0.0.1'],
    ['https://0177.0.0.1/', '127.0.0.1'],
    ['https://017700000001/', '127.0.0.1'],
    ['https://127.000.000.001/', '127.0.0.1'],
    ['https://0/', '0.0.0.0'],
    ['https://2852039166/', '169.254.169.254'],
    ['https://0xa9.0xfe.0xa9.0xfe/', '169.254.169.254'],
    ['https://167772161/', '10.0.0.1'],
    ['https://0300.0250.1.1/', '192.168.1.1'],
    ['https://[::1]/', '::1'],
    ['https://[0:0:0:0:0:0:0:1]:8443/', '::1'],
    ['https://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['https://[::127.0.0.1]/', '::7f00:1'],
    ['https://[FE80::1]/', 'fe80::1'],
    ['https://logo.acme-cdn.com/', undefined],
    ['https://localhost/', undefined],
    ['https://1.2.3.4.example.com/', undefined],
    ['https://xn--bcher-kva.com/', undefined],
  ])('reads %s as %s', (url, expected) => {
    expect(hostOf(new URL(url))).toBe(expected)
  })

  it.each(['https://[fe80::1%25eth0]/', 'https://[fe80::1%eth0]/', 'https://256.0.0.1/', 'https://0x100000000/', 'https://1.2.3.4.5/'])(
    'relies on WHATWG URL refusing %s',
    (url) => {
      expect(() => new URL(url)).toThrow(TypeError)
    },
  )
})

describe('hostNameProblem', () => {
  it.each(['logo.acme-cdn.com', 'acme-cdn.com', 'cdn.shopify.com', 'xn--bcher-kva.com', 'local.acme.com', 'test.acme.com', 'example.com'])(
    'lets %s through',
    (name) => {
      expect(hostNameProblem(name, strict)).toBeUndefined()
    },
  )

  it.each([
    'localhost',
    'localhost.',
    'foo.localhost',
    'printer.local',
    'printer.local.',
    'intranet',
    'intranet.',
    'metadata.google.internal',
    'www.test',
    'logo.invalid',
    'www.example',
    'router.home.arpa',
    'abc.onion',
    'nas.lan',
    'a..b.com',
  ])('refuses %s before any lookup', (name) => {
    expect(hostNameProblem(name, strict)).toBe(`${name} is not a public host name`)
  })

  it('lets localhost itself through in the sandbox, and nothing else under it', () => {
    expect(hostNameProblem('localhost', sandbox)).toBeUndefined()
    expect(hostNameProblem('localhost.', sandbox)).toBeUndefined()
    expect(hostNameProblem('foo.localhost', sandbox)).toBe('foo.localhost is not a public host name')
    expect(hostNameProblem('printer.local', sandbox)).toBe('printer.local is not a public host name')
    expect(hostNameProblem('intranet', sandbox)).toBe('intranet is not a public host name')
  })
})
