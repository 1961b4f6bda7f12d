import { API_VERSIONS, CreateMerchantRequest, DEFAULT_API_VERSION } from '@till/contract'
import { z } from 'zod'
import { ONE_STORAGE_MESSAGE, oneStorage, STORAGE_ENV, storageFlags, storageOptions } from '../config/flags.ts'
import { openDatabase } from '../db/open.ts'
import type { Database } from '../db/port.ts'
import { systemClock } from '../domain/clock.ts'
import { accountStore } from '../store/accounts.ts'
import { parseCommand, UsageError } from './args.ts'

/** Operator commands: onboarding partners, their API keys and their merchants. */

const STORAGE_HELP = `  --data-dir DIR        The PGlite data directory the service uses              [TILL_DATA_DIR]
  --database-url URL    Or the PostgreSQL server it uses                         [DATABASE_URL]
  --json                Print the result as one JSON line
  -h, --help            Show this help`

type Command = {
  help: string
  options: Record<string, { type: 'string' | 'boolean' }>
  schema: z.ZodType
  run(db: Database, flags: Record<string, unknown>): Promise<Record<string, unknown>>
  say(result: Record<string, unknown>): string
}

const needsStorage = (shape: z.ZodRawShape) =>
  z
    .object({ ...storageFlags, json: z.boolean().default(false), ...shape })
    .refine(oneStorage, ONE_STORAGE_MESSAGE)
    .refine((flags) => Boolean(flags['data-dir'] || flags['database-url']), {
      message: 'say which database to change: --data-dir DIR or --database-url URL (or TILL_DATA_DIR / DATABASE_URL)',
      path: ['data-dir'],
    })

const name = z.string().trim().min(1, { message: 'must not be empty' }).max(100)
const id = z.string().min(1, { message: 'is required' })

export const ADMIN_COMMANDS: Record<string, Command> = {
  migrate: {
    help: `Usage: till migrate [options]\n\nApplies pending database migrations (serve does this too).\n\n${STORAGE_HELP}\n`,
    options: {},
    schema: needsStorage({}),
    run: async () => ({ migrated: true }),
    say: () => 'The database schema is up to date.',
  },
  'partner create': {
    help: `Usage: till partner create --name NAME [--api-version V] [options]\n\nCreates a partner and its first API key. The key is shown once: store it now.\n\n  --name NAME           The partner's name\n  --api-version V       The API version its requests get by default (${API_VERSIONS.join(', ')}; ${DEFAULT_API_VERSION})\n${STORAGE_HELP}\n`,
    options: { name: { type: 'string' }, 'api-version': { type: 'string' } },
    schema: needsStorage({ name, 'api-version': z.enum(API_VERSIONS).default(DEFAULT_API_VERSION) }),
    async run(db, flags) {
      return db.transaction(async (tx) => {
        const accounts = accountStore(tx)
        const now = systemClock.now()
        const partner = await accounts.createPartner({
          name: String(flags.name),
          pinnedVersion: flags['api-version'] as (typeof API_VERSIONS)[number],
          now,
        })
        const key = await accounts.createApiKey({ partnerId: partner.id, mode: 'live', label: 'first', now })
        return { partnerId: partner.id, apiKey: key.key, version: partner.pinnedVersion }
      })
    },
    say: (r) => `Partner ${r.partnerId} (API version ${r.version})\nAPI key, shown only now: ${r.apiKey}`,
  },
  'api-key create': {
    help: `Usage: till api-key create --partner ID [--label TEXT] [options]\n\nIssues another API key for a partner. The key is shown once: store it now.\n\n  --partner ID          The partner\n  --label TEXT          A note to tell keys apart\n${STORAGE_HELP}\n`,
    options: { partner: { type: 'string' }, label: { type: 'string' } },
    schema: needsStorage({ partner: id, label: z.string().max(100).optional() }),
    async run(db, flags) {
      const accounts = accountStore(db)
      const partner = await accounts.findPartner(String(flags.partner))
      if (!partner) throw new UsageError(`No partner ${String(flags.partner)}.`)
      const key = await accounts.createApiKey({
        partnerId: partner.id,
        mode: partner.sandbox ? 'test' : 'live',
        ...(typeof flags.label === 'string' ? { label: flags.label } : {}),
        now: systemClock.now(),
      })
      return { partnerId: partner.id, apiKey: key.key }
    },
    say: (r) => `API key for ${r.partnerId}, shown only now: ${r.apiKey}`,
  },
  'api-key revoke': {
    help: `Usage: till api-key revoke --partner ID [--label TEXT] [options]\n\nRevokes a partner's keys (those with the label, or all). Running services stop accepting them within seconds.\n\n  --partner ID          The partner\n  --label TEXT          Only keys with this label\n${STORAGE_HELP}\n`,
    options: { partner: { type: 'string' }, label: { type: 'string' } },
    schema: needsStorage({ partner: id, label: z.string().optional() }),
    async run(db, flags) {
      const revoked = await accountStore(db).revokeApiKeys({
        partnerId: String(flags.partner),
        ...(typeof flags.label === 'string' ? { label: flags.label } : {}),
        now: systemClock.now(),
      })
      return { partnerId: flags.partner, revoked }
    },
    say: (r) => `Revoked ${r.revoked} key(s) of ${r.partnerId}.`,
  },
  'merchant create': {
    help: `Usage: till merchant create --partner ID --name NAME --email EMAIL [--icon-url URL] [options]\n\nCreates a merchant of a partner. Its id is the Merchant-Id header of checkout API calls.\n\n  --partner ID          The partner the merchant belongs to\n  --name NAME           Display name shown to buyers\n  --email EMAIL         Contact e-mail\n  --icon-url URL        Public HTTPS URL of the logo\n${STORAGE_HELP}\n`,
    options: { partner: { type: 'string' }, name: { type: 'string' }, email: { type: 'string' }, 'icon-url': { type: 'string' } },
    schema: needsStorage({
      partner: id,
      // The same rules as the merchant API's body (spec sections 4.5 and 8.2).
      name: CreateMerchantRequest.shape.merchantName,
      email: CreateMerchantRequest.shape.merchantEmail,
      'icon-url': CreateMerchantRequest.shape.iconUrl,
    }),
    async run(db, flags) {
      const accounts = accountStore(db)
      const partner = await accounts.findPartner(String(flags.partner))
      if (!partner) throw new UsageError(`No partner ${String(flags.partner)}.`)
      const merchant = await accounts.createMerchant({
        partnerId: partner.id,
        name: String(flags.name),
        email: String(flags.email),
        iconUrl: typeof flags['icon-url'] === 'string' ? flags['icon-url'] : null,
        now: systemClock.now(),
      })
      return { merchantId: merchant.id, partnerId: partner.id, name: merchant.name }
    },
    say: (r) => `Merchant ${r.merchantId} (${r.name}) of partner ${r.partnerId}`,
  },
}

export async function runAdminCommand(
  command: string,
  spec: Command,
  argv: string[],
  env: Record<string, string | undefined>,
): Promise<number> {
  const flags = parseCommand({
    argv,
    command,
    options: { ...storageOptions, json: { type: 'boolean' }, ...spec.options },
    schema: spec.schema,
    env,
    fromEnv: STORAGE_ENV,
  }) as Record<string, unknown> | 'help'
  if (flags === 'help') {
    process.stdout.write(spec.help)
    return 0
  }
  const db = await openDatabase({
    dataDir: flags['data-dir'] as string | undefined,
    databaseUrl: flags['database-url'] as string | undefined,
  })
  try {
    const result = await spec.run(db, flags)
    process.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : `${spec.say(result)}\n`)
    return 0
  } finally {
    await db.close()
  }
}
