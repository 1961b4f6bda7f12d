import type { ApiVersion } from '@till/contract'
import type { Queryable } from '../db/port.ts'
import { issueApiKey, type IssuedKey, type KeyMode } from './api-keys.ts'
import { newAppId, newMerchantId, newPartnerId } from '../core/ids.ts'

export type PartnerRecord = { id: string; name: string; pinnedVersion: ApiVersion; sandbox: boolean }

export type KeyRecord = {
  partnerId: string
  secretHash: Uint8Array
  pinnedVersion: ApiVersion
  sandbox: boolean
}

/** An API key as its partner's owners see it: never its secret. */
export type ApiKeyView = {
  id: string
  label: string | null
  createdBy: string | null
  createdAt: Date
  lastUsedAt: Date | null
  revokedAt: Date | null
}

/** A wallet app registered with a partner; its id is the public App-Id (spec 5). */
export type AppRecord = { id: string; partnerId: string; name: string; pinnedVersion: ApiVersion; sandbox: boolean }

export type MerchantRecord = {
  id: string
  partnerId: string
  name: string
  email: string
  /** Till's copy of the logo (docs/decisions/0020), shown at `logoUrl(logo)`; null when there is none. */
  logo: string | null
  /** The address the logo was imported from, once, at create or update. */
  logoSourceUrl: string | null
  /** Where buyers pay the merchant: one CAIP-10 account per network. */
  settlementAddresses: string[]
  status: 'active'
  createdAt: Date
}

/** A merchant's changed fields; `logo` together with `logoSourceUrl`, null for no logo. */
export type MerchantChanges = {
  name?: string
  email?: string
  logo?: { digest: string; sourceUrl: string } | null
  settlementAddresses?: readonly string[]
}

type MerchantRow = {
  id: string
  partner_id: string
  name: string
  email: string
  logo_digest: string | null
  logo_source_url: string | null
  settlement_addresses: string[]
  status: 'active'
  created_at: Date
}

const MERCHANT_COLUMNS = 'id, partner_id, name, email, logo_digest, logo_source_url, settlement_addresses, status, created_at'

const toMerchant = (row: MerchantRow): MerchantRecord => ({
  id: row.id,
  partnerId: row.partner_id,
  name: row.name,
  email: row.email,
  logo: row.logo_digest,
  logoSourceUrl: row.logo_source_url,
  settlementAddresses: row.settlement_addresses,
  status: row.status,
  createdAt: row.created_at,
})

/** Partners, their API keys and their merchants: the accounts side of the schema. */
export function accountStore(db: Queryable) {
  return {
    async createPartner(input: { name: string; pinnedVersion: ApiVersion; sandbox?: boolean; now: Date }) {
      const id = newPartnerId()
      await db.query('INSERT INTO partners (id, name, pinned_version, sandbox, created_at) VALUES ($1, $2, $3, $4, $5)', [
        id,
        input.name,
        input.pinnedVersion,
        input.sandbox ?? false,
        input.now,
      ])
      return { id, name: input.name, pinnedVersion: input.pinnedVersion, sandbox: input.sandbox ?? false }
    },

    async findPartner(id: string): Promise<PartnerRecord | undefined> {
      const [row] = await db.query<{ id: string; name: string; pinned_version: ApiVersion; sandbox: boolean }>(
        'SELECT id, name, pinned_version, sandbox FROM partners WHERE id = $1',
        [id],
      )
      return row && { id: row.id, name: row.name, pinnedVersion: row.pinned_version, sandbox: row.sandbox }
    },

    async findSandboxPartner(): Promise<PartnerRecord | undefined> {
      const [row] = await db.query<{ id: string }>('SELECT id FROM partners WHERE sandbox ORDER BY created_at, id LIMIT 1')
      return row && this.findPartner(row.id)
    },

    async createApiKey(input: { partnerId: string; mode: KeyMode; label?: string; createdBy?: string; now: Date }): Promise<IssuedKey> {
      const issued = issueApiKey(input.mode)
      await db.query('INSERT INTO api_keys (id, partner_id, secret_hash, label, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        issued.id,
        input.partnerId,
        issued.hash,
        input.label ?? null,
        input.createdBy ?? null,
        input.now,
      ])
      return issued
    },

    /** The partner's keys, newest first, revoked ones included. */
    async listApiKeys(partnerId: string): Promise<ApiKeyView[]> {
      const rows = await db.query<{
        id: string
        label: string | null
        created_by: string | null
        created_at: Date
        last_used_at: Date | null
        revoked_at: Date | null
      }>(
        `SELECT id, label, created_by, created_at, last_used_at, revoked_at FROM api_keys
          WHERE partner_id = $1 ORDER BY created_at DESC, id DESC`,
        [partnerId],
      )
      return rows.map((row) => ({
        id: row.id,
        label: row.label,
        createdBy: row.created_by,
        createdAt: row.created_at,
        lastUsedAt: row.last_used_at,
        revokedAt: row.revoked_at,
      }))
    },

    /** Revokes one of the partner's keys; false when it has no such active key. */
    async revokeApiKey(partnerId: string, id: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        'UPDATE api_keys SET revoked_at = $3 WHERE partner_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id',
        [partnerId, id, now],
      )
      return rows.length === 1
    },

    /** Notes that the key was used at `now`, unless a use under a minute ago was already noted. */
    async keyUsed(id: string, now: Date): Promise<void> {
      await db.query(
        `UPDATE api_keys SET last_used_at = $2
          WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`,
        [id, now],
      )
    },

    async revokeApiKeys(input: { partnerId: string; label?: string; now: Date }): Promise<number> {
      const rows = await db.query(
        `UPDATE api_keys SET revoked_at = $3
          WHERE partner_id = $1 AND revoked_at IS NULL AND ($2::text IS NULL OR label = $2)
          RETURNING id`,
        [input.partnerId, input.label ?? null, input.now],
      )
      return rows.length
    },

    async findActiveKey(id: string): Promise<KeyRecord | undefined> {
      const [row] = await db.query<{
        partner_id: string
        secret_hash: Uint8Array
        pinned_version: ApiVersion
        sandbox: boolean
      }>(
        `SELECT k.partner_id, k.secret_hash, p.pinned_version, p.sandbox
           FROM api_keys k JOIN partners p ON p.id = k.partner_id
          WHERE k.id = $1 AND k.revoked_at IS NULL`,
        [id],
      )
      return (
        row && {
          partnerId: row.partner_id,
          secretHash: row.secret_hash,
          pinnedVersion: row.pinned_version,
          sandbox: row.sandbox,
        }
      )
    },

    async createApp(input: { partnerId: string; name: string; now: Date }): Promise<{ id: string; partnerId: string; name: string }> {
      const id = newAppId()
      await db.query('INSERT INTO apps (id, partner_id, name, created_at) VALUES ($1, $2, $3, $4)', [
        id,
        input.partnerId,
        input.name,
        input.now,
      ])
      return { id, partnerId: input.partnerId, name: input.name }
    },

    async findApp(id: string): Promise<AppRecord | undefined> {
      const [row] = await db.query<{ id: string; partner_id: string; name: string; pinned_version: ApiVersion; sandbox: boolean }>(
        `SELECT a.id, a.partner_id, a.name, p.pinned_version, p.sandbox
           FROM apps a JOIN partners p ON p.id = a.partner_id WHERE a.id = $1`,
        [id],
      )
      return row && { id: row.id, partnerId: row.partner_id, name: row.name, pinnedVersion: row.pinned_version, sandbox: row.sandbox }
    },

    async findAppByName(partnerId: string, name: string): Promise<AppRecord | undefined> {
      const [row] = await db.query<{ id: string }>(
        'SELECT id FROM apps WHERE partner_id = $1 AND name = $2 ORDER BY created_at, id LIMIT 1',
        [partnerId, name],
      )
      return row && this.findApp(row.id)
    },

    async createMerchant(input: {
      partnerId: string
      name: string
      email: string
      logo?: { digest: string; sourceUrl: string } | null
      now: Date
    }): Promise<MerchantRecord> {
      const [row] = await db.query<MerchantRow>(
        `INSERT INTO merchants (id, partner_id, name, email, logo_digest, logo_source_url, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
         RETURNING ${MERCHANT_COLUMNS}`,
        [newMerchantId(), input.partnerId, input.name, input.email, input.logo?.digest ?? null, input.logo?.sourceUrl ?? null, input.now],
      )
      if (!row) throw new Error('INSERT … RETURNING gave no row')
      return toMerchant(row)
    },

    async findMerchant(id: string): Promise<MerchantRecord | undefined> {
      const [row] = await db.query<MerchantRow>(`SELECT ${MERCHANT_COLUMNS} FROM merchants WHERE id = $1`, [id])
      return row && toMerchant(row)
    },

    /** Changes a merchant of the partner in one statement; undefined when the partner has no such merchant. */
    async updateMerchant(input: { partnerId: string; merchantId: string; changes: MerchantChanges; now: Date }) {
      const { changes } = input
      const [row] = await db.query<MerchantRow>(
        `UPDATE merchants
            SET name = coalesce($3, name), email = coalesce($4, email),
                logo_digest = CASE WHEN $5 THEN $6 ELSE logo_digest END,
                logo_source_url = CASE WHEN $5 THEN $7 ELSE logo_source_url END,
                settlement_addresses = coalesce($9::text[], settlement_addresses),
                updated_at = $8
          WHERE id = $1 AND partner_id = $2
          RETURNING ${MERCHANT_COLUMNS}`,
        [
          input.merchantId,
          input.partnerId,
          changes.name ?? null,
          changes.email ?? null,
          changes.logo !== undefined,
          changes.logo?.digest ?? null,
          changes.logo?.sourceUrl ?? null,
          input.now,
          changes.settlementAddresses ? [...changes.settlementAddresses] : null,
        ],
      )
      return row && toMerchant(row)
    },

    async listMerchants(partnerId: string): Promise<MerchantRecord[]> {
      const rows = await db.query<MerchantRow>(
        `SELECT ${MERCHANT_COLUMNS} FROM merchants
          WHERE partner_id = $1 ORDER BY created_at DESC, id DESC`,
        [partnerId],
      )
      return rows.map(toMerchant)
    },
  }
}

export type AccountStore = ReturnType<typeof accountStore>
