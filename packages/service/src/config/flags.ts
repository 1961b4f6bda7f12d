import { z } from 'zod'
import { flag } from './flag.ts'

/** Flag value schemas, and the flags several commands share: each message says what a good value looks like. */

const truthy = new Set(['1', 'true', 'yes', 'on'])
const falsy = new Set(['0', 'false', 'no', 'off', ''])

export const booleanFlag = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value
    const normalized = value.trim().toLowerCase()
    return truthy.has(normalized) ? true : falsy.has(normalized) ? false : value
  },
  z.boolean({ message: 'must be true or false (1/0, yes/no also work)' }),
)

export const integerFlag = (min: number, max: number, hint: string) =>
  z.preprocess(
    (raw) => (typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw),
    z
      .number({ message: `must be a whole number (${hint})` })
      .int({ message: `must be a whole number (${hint})` })
      .min(min, { message: `must be at least ${min} (${hint})` })
      .max(max, { message: `must be at most ${max} (${hint})` }),
  )

export const httpUrlFlag = z.string().refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
  message: 'must be an absolute http:// or https:// URL, e.g. https://pay.example.com',
})

export const databaseUrlFlag = z.string().refine((value) => URL.canParse(value) && /^postgres(ql)?:$/.test(new URL(value).protocol), {
  message: 'must be a PostgreSQL URL such as postgres://user:password@127.0.0.1:5432/till',
})

/** Where the data lives. `till serve` and the admin commands take these two; see oneStorage. */
export const STORAGE_FLAGS = {
  'data-dir': flag({
    type: 'string',
    value: 'DIR',
    env: 'TILL_DATA_DIR',
    schema: z.string().min(1, { message: 'must name a directory' }).optional(),
    help: "Keep the embedded PostgreSQL server's data in DIR across runs",
  }),
  'database-url': flag({
    type: 'string',
    value: 'URL',
    env: 'DATABASE_URL',
    schema: databaseUrlFlag.optional(),
    help: 'Use an external PostgreSQL server instead',
  }),
}

/** `--json`: every command has one, each printing its own kind of line. */
export const jsonFlag = (help: string) => flag({ type: 'boolean', schema: booleanFlag.default(false), help })

export const oneStorage = (flags: { 'data-dir'?: string | undefined; 'database-url'?: string | undefined }) =>
  !(flags['data-dir'] && flags['database-url'])

export const ONE_STORAGE_MESSAGE = {
  message: "give either --data-dir (the embedded server's data) or --database-url (an external PostgreSQL server), not both",
  path: ['database-url'],
}
