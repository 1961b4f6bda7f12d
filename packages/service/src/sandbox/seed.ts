import { DEFAULT_API_VERSION, type ApiVersion } from '@till/contract'
import { accountStore, apiKeyId, hashApiKey } from '../accounts/index.ts'
import type { Clock } from '../core/clock.ts'
import type { Database } from '../db/port.ts'

export type SandboxAccounts = { partnerId: string; merchantId: string; apiKey: string; version: ApiVersion; appId: string }

/** The sandbox's own wallet app: the checkout page's test wallets pay through it. */
export const SANDBOX_APP_NAME = 'Till Sandbox Wallet'

const SANDBOX_KEY_LABEL = 'sandbox'
const SEED_LOCK_KEY = 7_467_114_001

export type SandboxSeedOptions = {
  /** The sandbox key to keep (`--sandbox-api-key`) instead of issuing a new one. */
  keep?: string | undefined
  /** The Pay-Version the sandbox partner is pinned to (`--sandbox-api-version`); unchanged when omitted. */
  version?: ApiVersion | undefined
}

/**
 * Makes sure the sandbox partner and its merchant exist, creating them once, and issues the sandbox API key.
 * Keys are stored only as hashes, so a restart cannot show the old key again: it replaces it (one sandbox
 * key at a time), unless the caller passes the key to keep.
 */
export async function ensureSandboxAccounts(db: Database, clock: Clock, options: SandboxSeedOptions = {}): Promise<SandboxAccounts> {
  const { keep, version } = options
  return db.transaction(async (tx) => {
    // Two sandbox servers starting on one PostgreSQL must not both create the partner.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK_KEY])
    const accounts = accountStore(tx)
    const now = clock.now()
    const found = await accounts.findSandboxPartner()
    const partner = found
      ? { ...found, pinnedVersion: version ?? found.pinnedVersion }
      : await accounts.createPartner({ name: 'Sandbox partner', pinnedVersion: version ?? DEFAULT_API_VERSION, sandbox: true, now })
    if (found && version && version !== found.pinnedVersion) {
      await tx.query('UPDATE partners SET pinned_version = $2 WHERE id = $1', [found.id, version])
    }
    const merchant =
      (await accounts.listMerchants(partner.id)).at(-1) ??
      (await accounts.createMerchant({ partnerId: partner.id, name: 'Till Demo Shop', email: 'shop@example.com', now }))
    await accounts.revokeApiKeys({ partnerId: partner.id, label: SANDBOX_KEY_LABEL, now })
    let apiKey: string
    if (keep) {
      const id = apiKeyId(keep)
      if (!id) throw new Error('The sandbox API key to keep is not a Till key (till_sk_test_…).')
      const kept = await tx.query(
        `INSERT INTO api_keys (id, partner_id, secret_hash, label, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO UPDATE SET revoked_at = NULL
          WHERE api_keys.partner_id = excluded.partner_id AND api_keys.secret_hash = excluded.secret_hash
         RETURNING id`,
        [id, partner.id, hashApiKey(keep), SANDBOX_KEY_LABEL, now],
      )
      if (kept.length === 0) throw new Error('The sandbox API key to keep collides with another key; omit it to get a new one.')
      apiKey = keep
    } else {
      apiKey = (await accounts.createApiKey({ partnerId: partner.id, mode: 'test', label: SANDBOX_KEY_LABEL, now })).key
    }
    const app =
      (await accounts.findAppByName(partner.id, SANDBOX_APP_NAME)) ??
      (await accounts.createApp({ partnerId: partner.id, name: SANDBOX_APP_NAME, now }))
    return { partnerId: partner.id, merchantId: merchant.id, apiKey, version: partner.pinnedVersion, appId: app.id }
  })
}
