// Every flag of every command, checked from its one declaration: `--help` lists it with its variable,
// and the variable really sets it. A flag added to a table is covered here without a new test.
import { describe, expect, it } from 'vitest'
import { defaultOf, envVariables } from '../config/flag.ts'
import { STORAGE_FLAGS } from '../config/flags.ts'
import { SERVE_FLAGS, ServeConfig } from '../config/serve-flags.ts'
import { ADMIN_COMMANDS } from './admin.ts'
import { parseCommand, UsageError } from './args.ts'
import { SERVE_HELP } from './serve.ts'

const parseServe = (argv: string[], env: Record<string, string> = {}) => {
  const config = parseCommand({ argv, command: 'serve', flags: SERVE_FLAGS, schema: ServeConfig, env })
  if (config === 'help') throw new Error('unexpected help')
  return config
}

/** The lines of a flag's entry in `--help`: from its own line to the next flag's. */
function entryOf(help: string, name: string): string[] {
  const lines = help.split('\n')
  const start = lines.findIndex((line) => new RegExp(`^  (-\\w, )?--${name}( |$)`).test(line))
  if (start === -1) return []
  const end = lines.findIndex((line, index) => index > start && /^ {2}-/.test(line))
  return lines.slice(start, end === -1 ? undefined : end)
}

// A good value for each flag that has a variable (what an operator would put there), and what the
// config then holds. A flag added with a variable must get one here; the first test says so.
const SAMPLES: Record<string, { raw: string; parsed: unknown; also?: Record<string, string> }> = {
  port: { raw: '8080', parsed: 8080 },
  host: { raw: '0.0.0.0', parsed: '0.0.0.0' },
  'data-dir': { raw: '/var/lib/till', parsed: '/var/lib/till' },
  'database-url': { raw: 'postgres://till@127.0.0.1:5432/till', parsed: 'postgres://till@127.0.0.1:5432/till' },
  sandbox: { raw: 'yes', parsed: true },
  'sandbox-api-key': { raw: 'till_sk_test_abc_secret', parsed: 'till_sk_test_abc_secret', also: { TILL_SANDBOX: '1' } },
  'payment-ttl': { raw: '60', parsed: 60 },
  'poll-ms': { raw: '500', parsed: 500 },
  'drain-ms': { raw: '15000', parsed: 15000 },
  'webhook-retention-days': { raw: '90', parsed: 90 },
  'metrics-port': { raw: '9464', parsed: 9464 },
  'replica-database-url': { raw: 'postgres://till@10.0.0.6:5432/till', parsed: 'postgres://till@10.0.0.6:5432/till' },
  'replica-max-lag-ms': { raw: '2000', parsed: 2000 },
  'metrics-host': { raw: '10.0.0.5', parsed: '10.0.0.5' },
  'public-url': { raw: 'https://pay.example.com', parsed: 'https://pay.example.com' },
  'checkout-url': { raw: 'https://pay.example.com/checkout', parsed: 'https://pay.example.com/checkout' },
  'log-level': { raw: 'debug', parsed: 'debug' },
  'status-cache-size': { raw: '0', parsed: 0 },
  'sandbox-confirm-ms': { raw: '1500', parsed: 1500 },
  'sandbox-hold-confirmations': { raw: 'true', parsed: true, also: { TILL_SANDBOX: '1' } },
  'sandbox-api-version': { raw: '2026-02-19.preview', parsed: '2026-02-19.preview', also: { TILL_SANDBOX: '1' } },
  'trust-proxy': { raw: 'on', parsed: true },
  'api-rate-limit': { raw: '6000', parsed: 6000 },
  'api-auth-failure-limit': { raw: '10', parsed: 10 },
  config: { raw: '/etc/till/evm.json', parsed: '/etc/till/evm.json' },
}

describe('till serve flags', () => {
  const variables = Object.entries(envVariables(SERVE_FLAGS))

  it('has a sample value for every flag with a variable', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(variables.map(([name]) => name).sort())
  })

  it.each(Object.keys(SERVE_FLAGS))('--help lists --%s', (name) => {
    expect(entryOf(SERVE_HELP, name).join('\n')).toMatch(/\S/)
  })

  it.each(variables)('--help shows --%s with [%s] at the right, in one column for all', (name, variable) => {
    const line = entryOf(SERVE_HELP, name).find((text) => text.endsWith(`[${variable}]`))
    expect(line).toBeDefined()
    const column = (text: string) => text.lastIndexOf(' [') + 1
    expect(column(line ?? '')).toBe(column(entryOf(SERVE_HELP, 'port')[0] ?? ''))
  })

  it.each(Object.entries(SERVE_FLAGS).filter(([, { type, schema }]) => type === 'string' && defaultOf(schema) !== undefined))(
    '--help shows the default of --%s',
    (name, { schema }) => {
      expect(entryOf(SERVE_HELP, name).join(' ').replace(/\s+/g, ' ')).toContain(`(default ${String(defaultOf(schema))})`)
    },
  )

  it.each(variables)('--%s is read from %s', (name, variable) => {
    const sample = SAMPLES[name]
    if (!sample) throw new Error(`no sample for --${name}`)
    expect(sample.parsed).not.toEqual(defaultOf(SERVE_FLAGS[name as keyof typeof SERVE_FLAGS].schema))
    expect(parseServe([], { [variable]: sample.raw, ...sample.also })[name as keyof ServeConfig]).toEqual(sample.parsed)
  })

  it('takes the command line over the environment, and the environment over the default', () => {
    expect(parseServe(['--port', '9090'], { TILL_PORT: '8080' }).port).toBe(9090)
    expect(parseServe([], { TILL_PORT: '8080' }).port).toBe(8080)
    expect(parseServe([]).port).toBe(4000)
  })

  it('ignores an empty variable, as if it were not set', () => {
    expect(parseServe([], { TILL_PORT: '' }).port).toBe(4000)
  })

  it('names the variable when its value is wrong', () => {
    expect(() => parseServe([], { TILL_PAYMENT_TTL: 'soon' })).toThrow(/--payment-ttl \(or TILL_PAYMENT_TTL\): must be a whole number/)
  })

  it('keeps the cross-flag rules, from the environment too', () => {
    expect(() => parseServe([], { TILL_SANDBOX_API_KEY: 'till_sk_test_abc' })).toThrow(/only makes sense with --sandbox/)
    expect(() => parseServe(['--data-dir', '/tmp/x'], { DATABASE_URL: 'postgres://127.0.0.1/x' })).toThrow(/not both/)
    expect(() => parseServe(['--metrics-port', '4000'])).toThrow(
      /--metrics-port must differ from --port: metrics are never served on the public port/,
    )
    expect(parseServe(['--metrics-port', '0', '--port', '0'])['metrics-port']).toBe(0)
  })

  it('answers -h and --help before validating anything', () => {
    for (const argv of [['--help'], ['-h'], ['--port', 'abc', '--help']]) {
      expect(parseCommand({ argv, command: 'serve', flags: SERVE_FLAGS, schema: ServeConfig })).toBe('help')
    }
  })

  it('says what is kept with neither storage flag', () => {
    expect(SERVE_HELP.replace(/\s+/g, ' ')).toContain(
      'With neither: an embedded PostgreSQL server in a temporary directory, removed at exit (nothing is kept)',
    )
  })
})

// The flags each command needs to get as far as opening its database.
const REQUIRED: Record<string, string[]> = {
  migrate: [],
  'partner create': ['--name', 'Acme'],
  'api-key create': ['--partner', 'par_1'],
  'api-key revoke': ['--partner', 'par_1'],
  'merchant create': ['--partner', 'par_1', '--name', 'Corner Shop', '--email', 'shop@example.com'],
  'merchant update': ['--merchant', 'mer_1', '--name', 'Renamed'],
  'app create': ['--partner', 'par_1', '--name', 'Pocket Wallet'],
  'webhooks list': ['--merchant', 'mer_1'],
  'webhooks deliveries': ['--merchant', 'mer_1', '--endpoint', 'we_1'],
  'webhooks redeliver': ['--merchant', 'mer_1', '--endpoint', 'we_1', '--delivery', '1'],
  'webhooks enable': ['--merchant', 'mer_1', '--endpoint', 'we_1'],
  'transfers unapplied': ['--merchant', 'mer_1'],
  'user invite': ['--partner', 'par_1', '--email', 'ana@shop.example', '--role', 'owner', '--public-url', 'https://till.example'],
}

describe.each(Object.entries(ADMIN_COMMANDS))('till %s', (command, spec) => {
  const required = REQUIRED[command] ?? []

  it('lists the storage flags with their variables, --json and --help', () => {
    for (const [name, variable] of Object.entries(envVariables(STORAGE_FLAGS))) {
      expect(entryOf(spec.help, name).join('\n')).toMatch(new RegExp(`\\[${variable}\\]$`))
    }
    expect(entryOf(spec.help, 'json')).not.toEqual([])
    expect(entryOf(spec.help, 'help')[0]).toMatch(/^ {2}-h, --help +Show this help$/)
  })

  it.each([
    [{ TILL_DATA_DIR: '/var/lib/till' }, { dataDir: '/var/lib/till', databaseUrl: undefined }],
    [{ DATABASE_URL: 'postgres://127.0.0.1/till' }, { dataDir: undefined, databaseUrl: 'postgres://127.0.0.1/till' }],
  ])('takes its database from %j', (env, expected) => {
    const invocation = spec.prepare(command, required, env)
    expect(invocation === 'help' ? invocation : invocation.storage).toEqual(expected)
  })

  it('refuses to guess which database to change', () => {
    expect(() => spec.prepare(command, required, {})).toThrow(UsageError)
    expect(() => spec.prepare(command, required, {})).toThrow(
      "say which database to change: --data-dir DIR (the embedded server's data) or --database-url URL",
    )
  })

  it('answers --help', () => {
    expect(spec.prepare(command, ['--help'], {})).toBe('help')
  })
})
