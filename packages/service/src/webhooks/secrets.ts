import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'

const PREFIX = 'whsec_'

/** A new signing secret as Standard Webhooks writes them: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(24).toString('base64')}`
}

/**
 * Seals signing secrets at rest with AES-256-GCM under a service key (service_secrets): the signer needs the
 * secret itself, so a hash would not do. Layout: 12-byte nonce, 16-byte tag, ciphertext.
 */
export function secretSealer(key: Buffer) {
  if (key.length !== 32) throw new Error('the webhook secret key must be 32 bytes')
  return {
    seal(secret: string): Buffer {
      const nonce = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, nonce)
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
      return Buffer.concat([nonce, cipher.getAuthTag(), sealed])
    },
    open(sealed: Uint8Array): string {
      const bytes = Buffer.from(sealed)
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12))
      decipher.setAuthTag(bytes.subarray(12, 28))
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')
    },
  }
}

export type SecretSealer = ReturnType<typeof secretSealer>

/**
 * The `webhook-signature` header: one `v1,<base64>` per secret that is valid now (the current one, and the
 * previous one during its grace period), separated by spaces, as Standard Webhooks allows.
 */
export function signatureHeader(secrets: readonly string[], id: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' ')
}
