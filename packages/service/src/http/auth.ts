import type { ApiVersion } from '@till/contract'
import { apiKeyId, apiKeyMatches } from '../domain/api-keys.ts'
import { ApiError } from '../errors.ts'
import type { AccountStore, KeyRecord } from '../store/accounts.ts'

export type Principal = { partnerId: string; pinnedVersion: ApiVersion; sandbox: boolean; keyId: string }

export type Authenticator = {
  authenticate(rawKey: string | undefined): Promise<Principal>
  /**
   * Whether the key's id names a key record this process has already found (and not lost in a lookup
   * since): checking such a key costs at most one query per `ttlMs`, however often it is sent. The secret
   * is not looked at; authenticate still decides.
   */
  recognizes(rawKey: string | undefined): boolean
  /** The merchant's partner, when the merchant exists. */
  merchantPartner(merchantId: string): Promise<string | undefined>
  /** The merchant's partner if this process has found the merchant before; no query. */
  knownMerchantPartner(merchantId: string): string | undefined
}

const MAX_CACHED = 10_000

/**
 * Resolves the Api-Key header to its partner. Key records are cached for `ttlMs` so the hot path costs no
 * query: a key revoked by another process stops working within that time. A presented key is hashed and
 * compared in constant time the first time it is seen; the verified key string is then remembered for as
 * long as its record is (hashing every request cost a tenth of a status read's CPU in `pnpm bench`), so a
 * different string for the same key id is still checked in full. Merchants never move between partners,
 * so their owner is cached the same way (found ones only: a new merchant works at once).
 */
export function authenticator(deps: { accounts: AccountStore; ttlMs: number }): Authenticator {
  const keys = new Map<string, { record: KeyRecord; until: number }>()
  const verified = new Map<string, { principal: Principal; until: number }>()
  const merchants = new Map<string, string>()

  function remember<V>(map: Map<string, V>, key: string, value: V) {
    if (map.size >= MAX_CACHED) map.delete(map.keys().next().value ?? '')
    map.set(key, value)
  }

  async function keyRecord(id: string): Promise<KeyRecord | undefined> {
    const cached = keys.get(id)
    if (cached && cached.until > performance.now()) return cached.record
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
      if (known && known.until > performance.now()) return known.principal
      verified.delete(rawKey)
      const id = apiKeyId(rawKey)
      const record = id === undefined ? undefined : await keyRecord(id)
      if (id === undefined || !record || !apiKeyMatches(rawKey, record.secretHash)) {
        throw new ApiError('invalid_api_key', 'The API key is not valid.')
      }
      const principal = { partnerId: record.partnerId, pinnedVersion: record.pinnedVersion, sandbox: record.sandbox, keyId: id }
      remember(verified, rawKey, { principal, until: keys.get(id)?.until ?? 0 })
      return principal
    },

    recognizes(rawKey) {
      const id = rawKey === undefined ? undefined : apiKeyId(rawKey)
      // A record past its ttl stays in the map until a lookup fails to find it again.
      return id !== undefined && keys.has(id)
    },

    knownMerchantPartner: (merchantId) => merchants.get(merchantId),

    async merchantPartner(merchantId) {
      const cached = merchants.get(merchantId)
      if (cached) return cached
      const merchant = await deps.accounts.findMerchant(merchantId)
      if (merchant) remember(merchants, merchantId, merchant.partnerId)
      return merchant?.partnerId
    },
  }
}
