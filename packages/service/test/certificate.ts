import selfsigned from 'selfsigned'

/**
 * A certificate made at run time for `hosts` and 127.0.0.1, its own CA: a test server serves it, and the
 * client under test trusts it (`ca`, or NODE_EXTRA_CA_CERTS for a child process), with verification on.
 */
export async function selfSignedCertificate(hosts: readonly [string, ...string[]]): Promise<{ key: string; cert: string }> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: hosts[0] }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [...hosts.map((value) => ({ type: 2 as const, value })), { type: 7 as const, ip: '127.0.0.1' }] },
    ],
  })
  return { key: pems.private, cert: pems.cert }
}
