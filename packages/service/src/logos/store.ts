import { createHash } from 'node:crypto'
import type { Queryable } from '../db/port.ts'
import type { LogoVariant } from './image.ts'

export type StoredLogo = { contentType: string; bytes: Buffer }

/**
 * Logos by content: the digest is the SHA-256 of the largest variant, so the same image imported twice is
 * stored once, and a digest always names the same bytes (its URL can be cached forever).
 */
export function logoStore(db: Queryable) {
  return {
    async save(variants: readonly LogoVariant[], now: Date): Promise<string> {
      const largest = [...variants].sort((a, b) => b.size - a.size)[0]
      if (!largest) throw new Error('a logo needs at least one variant')
      const digest = createHash('sha256').update(largest.bytes).digest('hex')
      for (const variant of variants) {
        await db.query(
          `INSERT INTO logo_images (digest, size, content_type, bytes, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (digest, size) DO NOTHING`,
          [digest, variant.size, variant.contentType, variant.bytes, now],
        )
      }
      return digest
    },

    async read(digest: string, size: number): Promise<StoredLogo | undefined> {
      const [row] = await db.query<{ content_type: string; bytes: Buffer }>(
        'SELECT content_type, bytes FROM logo_images WHERE digest = $1 AND size = $2',
        [digest, size],
      )
      return row && { contentType: row.content_type, bytes: row.bytes }
    },
  }
}

export type LogoStore = ReturnType<typeof logoStore>
