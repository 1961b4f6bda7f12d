import type { FastifyBaseLogger } from 'fastify'
import type { AccountStore } from '../accounts/index.ts'
import type { Clock } from '../core/clock.ts'
import type { Database } from '../db/port.ts'
import type { Authenticator } from './auth.ts'

/** The channel of migrations/0022_api_keys_page.sql: a key's id, at the commit of its revocation. */
export const KEY_REVOKED_CHANNEL = 'till_api_key_revoked'

// "Last used" is for people reading the API keys page: a minute is exact enough, and spares the hot path
// a write per request.
const NOTE_EVERY_MS = 60_000
const MAX_NOTED = 10_000

/**
 * Notes that a key was accepted: written at most once a minute per key by this instance (and at most once
 * a minute in all, by the statement's own guard), never waited for by the request.
 */
export function keyUsage(deps: { accounts: Pick<AccountStore, 'keyUsed'>; clock: Clock; log: FastifyBaseLogger }) {
  const noted = new Map<string, number>()
  return (keyId: string): void => {
    const now = deps.clock.now()
    const last = noted.get(keyId)
    if (last !== undefined && now.getTime() - last < NOTE_EVERY_MS) return
    if (noted.size >= MAX_NOTED) noted.delete(noted.keys().next().value ?? '')
    noted.set(keyId, now.getTime())
    deps.accounts.keyUsed(keyId, now).catch((error: unknown) => {
      deps.log.warn({ err: error, keyId }, 'could not note when an API key was last used')
    })
  }
}

/**
 * Makes every revocation, on any instance, forget the key here at once. While revocations may be missed,
 * the authenticator trusts nothing it cached. Resolves with the unsubscribe function.
 */
export function followKeyRevocations(
  subscribe: Database['subscribe'],
  auth: Pick<Authenticator, 'forget' | 'hearing'>,
  log: FastifyBaseLogger,
): Promise<() => Promise<void>> {
  return subscribe(KEY_REVOKED_CHANNEL, {
    message: (keyId) => auth.forget(keyId),
    connected: () => auth.hearing(true),
    lost(error) {
      auth.hearing(false)
      log.warn({ err: error }, 'key revocations may go unheard: every API key is looked up on every request until they resume')
    },
  })
}
