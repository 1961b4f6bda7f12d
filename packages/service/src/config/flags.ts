import { z } from 'zod'

/** Flag value schemas shared by the commands: each message says what a good value looks like. */

const truthy = new Set(['1', 'true', 'yes', 'on'])
const falsy = new Set(['0', 'false', 'no', 'off', ''])

export const booleanFlag = z.preprocess((value) => {
  if (typeof value !== 'string') return value
  const normalized = value.trim().toLowerCase()
  return truthy.has(normalized) ? true : falsy.has(normalized) ? false : value
}, z.boolean({ message: 'must be true or false (1/0, yes/no also work)' }))

export const integerFlag = (min: number, max: number, hint: string) =>
  z.preprocess(
    (raw) => (typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw),
    z
      .number({ message: `must be a whole number (${hint})` })
      .int({ message: `must be a whole number (${hint})` })
      .min(min, { message: `must be at least ${min} (${hint})` })
      .max(max, { message: `must be at most ${max} (${hint})` }),
  )

export const httpUrlFlag = z
  .string()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: 'must be an absolute http:// or https:// URL, e.g. https://pay.example.com',
  })

export const databaseUrlFlag = z
  .string()
  .refine((value) => URL.canParse(value) && /^postgres(ql)?:$/.test(new URL(value).protocol), {
    message: 'must be a PostgreSQL URL such as postgres://user:password@127.0.0.1:5432/till',
  })

export const storageFlags = {
  'data-dir': z.string().min(1, { message: 'must name a directory' }).optional(),
  'database-url': databaseUrlFlag.optional(),
}

export const storageOptions = {
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
} as const

export const STORAGE_ENV = { 'data-dir': 'TILL_DATA_DIR', 'database-url': 'DATABASE_URL' }

export const oneStorage = (flags: { 'data-dir'?: string | undefined; 'database-url'?: string | undefined }) =>
  !(flags['data-dir'] && flags['database-url'])

export const ONE_STORAGE_MESSAGE = {
  message: 'give either --data-dir (embedded PGlite) or --database-url (PostgreSQL), not both',
  path: ['database-url'],
}
