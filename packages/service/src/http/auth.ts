import { type ApiVersion, AppId, WalletClientId } from '@till/contract'
import { apiKeyId, apiKeyMatches } from '../accounts/index.ts'
import { ApiError } from '../errors.ts'
import type { AccountStore, AppRecord, KeyRecord } from '../accounts/index.ts'

export type Principal = {
  partnerId: string
  pinnedVersion: ApiVersion
  sandbox: boolean
  /** What rate limits count against: the API key's id, or the wallet app's. */
  keyId: string
  /** Set when the caller is a wallet app's client (App-Id + Client-Id) rather than the partner's key. */
  wallet?: { appId: string; clientId: string }
}

export type Authenticator = {
  authenticate(rawKey: string | undefined): Promise<Principal>
  /**
   * Whether the key's id names a key record this process has already found (and not lost in a lookup
   * since): checking such a key costs at most one query per `ttlMs`, however often it is sent. The secret
   * is not looked at; authenticate still decides.
   */
  recognizes(rawKey: string | undefined): boolean
  /**
   * A wallet app's client (spec 5): App-Id names an app registered with a partner and is public, so it
   * only ever opens the payments that this client paid through that app.
   */
  authenticateWallet(appId: string, clientId: string | undefined): Promise<Principal>
  /** The merchant's partner, when the merchant exists. */
  merchantPartner(merchantId: string): Promise<string | undefined>
  /** The merchant's partner if this process has found the merchant before; no query. */
  knownMerchantPartner(merchantId: string): string | undefined
  /** A key was revoked (on any instance): it is looked up again, and refused, from the next request on. */
  forget(keyId: string): void
  /**
   * Whether revocations are heard. While they may be missed (the database's notifications are
   * interrupted), nothing cached is trusted: every key is looked up again, on every request.
   */
  hearing(now: boolean): void
}

const MAX_CACHED = 10_000

/**
 * Resolves the Api-Key header to its partner. Key records are cached for `ttlMs` so the hot path costs no
 * query: a key revoked on any instance is forgotten at once when its revocation is heard (key-lifecycle.ts),
 * and within that time at worst. A presented key is hashed and
 * compared in constant time the first time it is seen; the verified key string is then remembered for as
 * long as its record is (hashing every request cost a tenth of a status read's CPU in `pnpm bench`), so a
 * different string for the same key id is still checked in full. Merchants never move between partners,
 * so their owner is cached the same way (found ones only: a new merchant works at once).
 */
export function authenticator(deps: { accounts: AccountStore; ttlMs: number; used?: (keyId: string) => void }): Authenticator {
  const keys = new Map<string, { record: KeyRecord; until: number }>()
  const verified = new Map<string, { principal: Principal; until: number }>()
  const merchants = new Map<string, string>()
  const apps = new Map<string, { record: AppRecord; until: number }>()
  let trusted = true

  function remember<V>(map: Map<string, V>, key: string, value: V) {
    if (map.size >= MAX_CACHED) map.delete(map.keys().next().value ?? '')
    map.set(key, value)
  }

  async function keyRecord(id: string): Promise<KeyRecord | undefined> {
    const cached = keys.get(id)
    if (trusted && cached && cached.until > performance.now()) return cached.record
    const record = await deps.accounts.findActiveKey(id)
    if (record) remember(keys, id, { record, until: performance.now() + deps.ttlMs })
    else keys.delete(id)
    return record
  }

  return {
    async authenticate(rawKey) {
      if (rawKey === undefined || rawKey.trim() === '') {
        throw new ApiError('missing_api_key', 'No API key was sent. Send it in the Api-Key header.')
      }
      const known = verified.get(rawKey)
      if (trusted && known && known.until > performance.now()) {
        deps.used?.(known.principal.keyId)
        return known.principal
      }
      verified.delete(rawKey)
      const id = apiKeyId(rawKey)
      const record = id === undefined ? undefined : await keyRecord(id)
      if (id === undefined || !record || !apiKeyMatches(rawKey, record.secretHash)) {
        throw new ApiError('invalid_api_key', 'The API key is not valid.')
      }
      const principal = { partnerId: record.partnerId, pinnedVersion: record.pinnedVersion, sandbox: record.sandbox, keyId: id }
      remember(verified, rawKey, { principal, until: keys.get(id)?.until ?? 0 })
      deps.used?.(id)
      return principal
    },

    async authenticateWallet(appId, clientId) {
      if (clientId === undefined || clientId.trim() === '') {
        throw new ApiError('missing_api_key', 'App-Id needs a Client-Id header naming the wallet client; no Client-Id was sent.')
      }
      let cached = apps.get(appId)
      if (!cached || cached.until <= performance.now()) {
        const record = AppId.safeParse(appId).success ? await deps.accounts.findApp(appId) : undefined
        if (!record) {
          apps.delete(appId)
          throw new ApiError('invalid_api_key', 'The App-Id is not a registered app.')
        }
        cached = { record, until: performance.now() + deps.ttlMs }
        remember(apps, appId, cached)
      }
      if (!WalletClientId.safeParse(clientId).success) {
        throw new ApiError('invalid_api_key', 'The Client-Id must be 1 to 128 characters of A-Z, a-z, 0-9 and . _ : @ + -')
      }
      const { record } = cached
      return {
        partnerId: record.partnerId,
        pinnedVersion: record.pinnedVersion,
        sandbox: record.sandbox,
        keyId: `app:${record.id}`,
        wallet: { appId: record.id, clientId },
      }
    },

    recognizes(rawKey) {
      const id = rawKey === undefined ? undefined : apiKeyId(rawKey)
      // A record past its ttl stays in the map until a lookup fails to find it again.
      return id !== undefined && keys.has(id)
    },

    knownMerchantPartner: (merchantId) => merchants.get(merchantId),

    forget(keyId) {
      keys.delete(keyId)
      for (const [rawKey, entry] of verified) if (entry.principal.keyId === keyId) verified.delete(rawKey)
    },

    hearing(now) {
      trusted = now
      keys.clear()
      verified.clear()
    },

    async merchantPartner(merchantId) {
      const cached = merchants.get(merchantId)
      if (cached) return cached
      const merchant = await deps.accounts.findMerchant(merchantId)
      if (merchant) remember(merchants, merchantId, merchant.partnerId)
      return merchant?.partnerId
    },
  }
}
