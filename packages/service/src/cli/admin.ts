import { API_VERSIONS, CreateMerchantRequest, DEFAULT_API_VERSION, UpdateMerchantRequest } from '@till/contract'
import { z } from 'zod'
import { flag } from '../config/flag.ts'
import type { Database } from '../db/port.ts'
import { systemClock } from '../core/clock.ts'
import { parseOrThrow } from '../errors.ts'
import { logoFetcher, logoImporter, logoStore, logoUrls } from '../logos/index.ts'
import { idempotencyKeys, merchantService } from '../merchants/index.ts'
import { accountStore } from '../accounts/index.ts'
import { adminCommand, type Command, fromCommandLine, id, labelFlag, name, partnerFlag } from './admin-command.ts'
import { UsageError } from './args.ts'
import { TRANSFER_COMMANDS } from './transfer-commands.ts'
import { USER_COMMANDS } from './user-commands.ts'
import { WEBHOOK_COMMANDS } from './webhook-commands.ts'

/** Operator commands: onboarding partners, their API keys and their merchants, and webhooks. */

/** The merchant API's own service: the CLI changes merchants by the same rules. Loopback logo hosts are refused. */
function merchantsOf(db: Database) {
  const clock = systemClock
  return merchantService({
    db,
    clock,
    logoUrl: logoUrls(() => '/checkout'),
    idempotency: idempotencyKeys({ db, clock }),
    importLogo: logoImporter({ fetch: logoFetcher({ allowLoopback: false }), store: logoStore(db), clock }),
  })
}
export const ADMIN_COMMANDS: Record<string, Command> = {
  ...WEBHOOK_COMMANDS,
  ...TRANSFER_COMMANDS,
  ...USER_COMMANDS,
  migrate: adminCommand({
    usage: 'till migrate [options]',
    about: 'Applies pending database migrations (serve does this too).',
    flags: {},
    run: async () => ({ migrated: true }),
    say: () => 'The database schema is up to date.',
  }),
  'partner create': adminCommand({
    usage: 'till partner create --name NAME [--api-version V] [options]',
    about: 'Creates a partner and its first API key. The key is shown once: store it now.',
    flags: {
      name: flag({ type: 'string', value: 'NAME', schema: name, help: "The partner's name" }),
      'api-version': flag({
        type: 'string',
        value: 'V',
        schema: z.enum(API_VERSIONS).default(DEFAULT_API_VERSION),
        help: `API version pinned for its requests: ${API_VERSIONS.join(' or ')}`,
      }),
    },
    async run(db, flags) {
      return db.transaction(async (tx) => {
        const accounts = accountStore(tx)
        const now = systemClock.now()
        const partner = await accounts.createPartner({ name: flags.name, pinnedVersion: flags['api-version'], now })
        const key = await accounts.createApiKey({ partnerId: partner.id, mode: 'live', label: 'first', createdBy: 'command line', now })
        await fromCommandLine(tx, { partnerId: partner.id, action: 'api_key_created', target: key.id, at: now })
        return { partnerId: partner.id, apiKey: key.key, version: partner.pinnedVersion }
      })
    },
    say: (r) => `Partner ${r.partnerId} (API version ${r.version})\nAPI key, shown only now: ${r.apiKey}`,
  }),
  'api-key create': adminCommand({
    usage: 'till api-key create --partner ID [--label TEXT] [options]',
    about: 'Issues another API key for a partner. The key is shown once: store it now.',
    flags: {
      partner: partnerFlag('The partner'),
      label: labelFlag('A note to tell keys apart', z.string().max(100).optional()),
    },
    async run(db, flags) {
      return db.transaction(async (tx) => {
        const accounts = accountStore(tx)
        const partner = await accounts.findPartner(flags.partner)
        if (!partner) throw new UsageError(`No partner ${flags.partner}.`)
        const now = systemClock.now()
        const key = await accounts.createApiKey({
          partnerId: partner.id,
          mode: partner.sandbox ? 'test' : 'live',
          ...(flags.label === undefined ? {} : { label: flags.label }),
          createdBy: 'command line',
          now,
        })
        await fromCommandLine(tx, { partnerId: partner.id, action: 'api_key_created', target: key.id, at: now })
        return { partnerId: partner.id, apiKey: key.key }
      })
    },
    say: (r) => `API key for ${r.partnerId}, shown only now: ${r.apiKey}`,
  }),
  'api-key revoke': adminCommand({
    usage: 'till api-key revoke --partner ID [--label TEXT] [options]',
    about: "Revokes a partner's keys (those with the label, or all). Running services stop accepting them within seconds.",
    flags: {
      partner: partnerFlag('The partner'),
      label: labelFlag('Only keys with this label', z.string().optional()),
    },
    async run(db, flags) {
      return db.transaction(async (tx) => {
        const now = systemClock.now()
        const revoked = await accountStore(tx).revokeApiKeys({
          partnerId: flags.partner,
          ...(flags.label === undefined ? {} : { label: flags.label }),
          now,
        })
        if (revoked > 0) {
          const target = flags.label === undefined ? 'every key' : `label ${flags.label}`
          await fromCommandLine(tx, { partnerId: flags.partner, action: 'api_keys_revoked', target, at: now, details: { revoked } })
        }
        return { partnerId: flags.partner, revoked }
      })
    },
    say: (r) => `Revoked ${r.revoked} key(s) of ${r.partnerId}.`,
  }),
  'merchant create': adminCommand({
    usage: 'till merchant create --partner ID --name NAME --email EMAIL [--icon-url URL] [options]',
    about:
      'Creates a merchant of a partner, as POST /v1/merchants does (the same rules, and the logo fetched and checked the same way; ' +
      'loopback logo hosts are refused here). Its id is the Merchant-Id header of checkout API calls.',
    // The same rules as the merchant API's body (spec sections 4.5 and 8.2).
    flags: {
      partner: partnerFlag('The partner the merchant belongs to'),
      name: flag({ type: 'string', value: 'NAME', schema: CreateMerchantRequest.shape.merchantName, help: 'Display name shown to buyers' }),
      email: flag({ type: 'string', value: 'EMAIL', schema: CreateMerchantRequest.shape.merchantEmail, help: 'Contact e-mail' }),
      'icon-url': flag({ type: 'string', value: 'URL', schema: CreateMerchantRequest.shape.iconUrl, help: 'Public HTTPS URL of the logo' }),
    },
    async run(db, flags) {
      const accounts = accountStore(db)
      const partner = await accounts.findPartner(flags.partner)
      if (!partner) throw new UsageError(`No partner ${flags.partner}.`)
      const { merchant } = await merchantsOf(db).create({
        partnerId: partner.id,
        request: { merchantName: flags.name, merchantEmail: flags.email, iconUrl: flags['icon-url'] ?? null },
      })
      return { merchantId: merchant.id, partnerId: partner.id, name: merchant.name, logo: merchant.iconUrl !== null }
    },
    say: (r) => `Merchant ${r.merchantId} (${r.name}) of partner ${r.partnerId}`,
  }),

  'merchant update': adminCommand({
    usage: 'till merchant update --merchant ID [--name NAME] [--email EMAIL] [--icon-url URL|none] [--settlement-addresses LIST] [options]',
    about:
      'Changes a merchant, as PATCH /v1/merchants/{id} does (the same rules; a refused change changes nothing). ' +
      '--settlement-addresses replaces the receiving accounts: CAIP-10, comma-separated, one per network, EIP-55 checksummed.',
    flags: {
      merchant: flag({ type: 'string', value: 'ID', schema: id, help: 'The merchant to change' }),
      name: flag({ type: 'string', value: 'NAME', schema: z.string().optional(), help: 'Display name shown to buyers' }),
      email: flag({ type: 'string', value: 'EMAIL', schema: z.string().optional(), help: 'Contact e-mail' }),
      'icon-url': flag({
        type: 'string',
        value: 'URL',
        schema: z.string().optional(),
        help: 'Public HTTPS URL of the logo, or none to remove it',
      }),
      'settlement-addresses': flag({
        type: 'string',
        value: 'LIST',
        schema: z.string().optional(),
        help: 'e.g. eip155:8453:0xAbC…,eip155:1:0xDeF… (an empty string clears them)',
      }),
    },
    async run(db, flags) {
      const merchant = await accountStore(db).findMerchant(flags.merchant)
      if (!merchant) throw new UsageError(`No merchant ${flags.merchant}.`)
      const addresses = flags['settlement-addresses']
      const request = parseOrThrow(
        UpdateMerchantRequest,
        {
          merchantName: flags.name,
          merchantEmail: flags.email,
          iconUrl: flags['icon-url'] === 'none' ? null : flags['icon-url'],
          settlementAddresses: addresses === undefined ? undefined : addresses.split(',').filter(Boolean),
        },
        'flags',
      )
      const updated = await merchantsOf(db).update({ partnerId: merchant.partnerId, merchantId: merchant.id, request })
      return { merchant: updated }
    },
    say: (r) =>
      [
        `Merchant ${r.merchant.id} (${r.merchant.name}, ${r.merchant.email})`,
        ...r.merchant.settlementAddresses.map((a) => `  receives on ${a}`),
      ].join('\n'),
  }),

  'app create': adminCommand({
    usage: 'till app create --partner ID --name NAME [options]',
    about:
      'Registers a wallet app with a partner and prints its App-Id. The id is public: with a Client-Id it lists only the payments that client paid through the app.',
    flags: {
      partner: partnerFlag('The partner the wallet app belongs to'),
      name: flag({ type: 'string', value: 'NAME', schema: name, help: "The wallet app's name" }),
    },
    async run(db, flags) {
      const accounts = accountStore(db)
      const partner = await accounts.findPartner(flags.partner)
      if (!partner) throw new UsageError(`No partner ${flags.partner}.`)
      const app = await accounts.createApp({ partnerId: partner.id, name: flags.name, now: systemClock.now() })
      return { appId: app.id, partnerId: partner.id, name: app.name }
    },
    say: (r) => `Wallet app ${r.appId} (${r.name}) of partner ${r.partnerId}: send it as App-Id, with a Client-Id.`,
  }),
}
