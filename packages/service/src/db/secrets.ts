import { randomBytes } from 'node:crypto'
import type { Queryable } from './port.ts'

/**
 * Returns the named secret, creating it on first use. Concurrent first uses (several instances starting
 * together) agree: the insert that loses the race does nothing, and everyone reads the winner's bytes.
 */
export async function serviceSecret(db: Queryable, name: string, now: Date): Promise<Buffer> {
  await db.query('INSERT INTO service_secrets (name, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32),
    now,
  ])
  const [row] = await db.query<{ secret: Uint8Array }>('SELECT secret FROM service_secrets WHERE name = $1', [name])
  if (!row) throw new Error(`service secret ${name} vanished after it was written`)
  return Buffer.from(row.secret)
}
