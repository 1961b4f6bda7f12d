// A certificate for localhost and 127.0.0.1, made at start-up: the shop is served over HTTPS so that its
// return URLs are valid HTTPS URLs and the checkout page's redirect is enabled (spec 4.2). Browsers will
// not trust it; the demo says so, and the e2e suite ignores HTTPS errors. Till does trust it, through
// NODE_EXTRA_CA_CERTS, to fetch the shop's logo with TLS verification on: so it is its own CA.
import selfsigned from 'selfsigned'

export interface Certificate {
  key: string
  cert: string
}

export async function localhostCertificate(): Promise<Certificate> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0 },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  })
  return { key: pems.private, cert: pems.cert }
}
