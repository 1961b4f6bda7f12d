// Standard Webhooks signature verification. The signature is the reference implementation's
// (`standardwebhooks`' `Webhook#sign`: HMAC-SHA256 of `<id>.<timestamp>.<body>` under the decoded
// `whsec_` secret); the timestamp is checked here rather than by its `verify`, whose clock is `Date.now`
// and cannot be given another, so that the 5-minute tolerance is tested without waiting five minutes.
import { timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { WEBHOOK_HEADERS } from '@till/contract'
import { Webhook } from 'standardwebhooks'
import { MerchantError } from './errors.ts'

/** How far `webhook-timestamp` may be from this server's clock, either way: the Standard Webhooks default. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60

/** Checks a delivery's signature and timestamp, and answers its `webhook-id`; throws a 400 otherwise. */
export type SignatureCheck = (body: Buffer, headers: IncomingHttpHeaders) => string

/** Builds the check for one or more secrets (a rotation); a secret that is not one throws, naming only its position. */
export function signatureCheck(secret: unknown, now: () => number, who: string): SignatureCheck {
  const secrets: readonly unknown[] | undefined = typeof secret === 'string' ? [secret] : Array.isArray(secret) ? secret : undefined
  if (secrets === undefined || secrets.length === 0) {
    throw new TypeError(`${who}: webhookSecret is required: the whsec_… secret Till showed when the webhook endpoint was created`)
  }
  const signers = secrets.map((value, index) => {
    const name = typeof secret === 'string' ? 'webhookSecret' : `webhookSecret[${index}]`
    try {
      if (typeof value !== 'string' || value === '') throw new TypeError('not a string')
      return new Webhook(value)
    } catch (error) {
      // The secret itself is never echoed: configuration errors end up in logs.
      throw new TypeError(`${who}: ${name} is not a signing secret: expected whsec_ followed by base64, as Till showed it`, {
        cause: error,
      })
    }
  })

  return (body, headers) => {
    const id = headerOf(headers, WEBHOOK_HEADERS.id)
    const timestamp = headerOf(headers, WEBHOOK_HEADERS.timestamp)
    const signature = headerOf(headers, WEBHOOK_HEADERS.signature)
    if (id === undefined || timestamp === undefined || signature === undefined) {
      throw invalid('A webhook delivery needs the webhook-id, webhook-timestamp and webhook-signature headers.')
    }
    if (!/^\d{1,15}$/.test(timestamp)) throw invalid('webhook-timestamp must be a time in Unix seconds.')
    const seconds = Number(timestamp)
    if (Math.abs(Math.floor(now() / 1000) - seconds) > WEBHOOK_TOLERANCE_SECONDS) {
      // An old delivery replayed, or a server clock that is off (run NTP): either way it is refused.
      throw invalid('webhook-timestamp is more than 5 minutes away from this server’s clock.')
    }
    const offered = signature.split(' ').flatMap((part) => {
      const [version, value] = part.split(',')
      return version === 'v1' && value !== undefined && value !== '' ? [Buffer.from(value)] : []
    })
    const signedAt = new Date(seconds * 1000)
    for (const signer of signers) {
      const expected = Buffer.from(signer.sign(id, signedAt, body).slice('v1,'.length))
      if (offered.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected))) return id
    }
    throw invalid('The webhook signature does not match: the body, id or timestamp changed, or the secret is not this endpoint’s.')
  }
}

function headerOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

const invalid = (message: string) => new MerchantError(400, 'invalid_signature', message)
