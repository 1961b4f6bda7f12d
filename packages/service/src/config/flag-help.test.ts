import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { flag } from './flag.ts'
import { commandHelp, flagHelp } from './flag-help.ts'
import { SERVE_FLAGS } from './serve-flags.ts'

describe('flagHelp', () => {
  it('puts the flag, its text with the default, and its variable in columns', () => {
    const help = flagHelp({
      port: flag({ type: 'string', value: 'N', env: 'PORT', schema: z.string().default('80'), help: 'Port' }),
      quiet: flag({ type: 'boolean', env: 'QUIET', schema: z.boolean().default(false), help: 'Say less' }),
    })
    expect(help.split('\n')).toEqual([
      `  --port N              ${'Port (default 80)'.padEnd(64)} [PORT]`,
      `  --quiet               ${'Say less'.padEnd(64)} [QUIET]`,
    ])
  })

  it('wraps long text to the column, the variable on its last line, and a note below', () => {
    const help = flagHelp({
      wordy: flag({
        type: 'boolean',
        env: 'WORDY',
        schema: z.boolean().optional(),
        help: 'One two three four five six seven eight nine ten eleven twelve thirteen fourteen',
        note: 'And a note\nforced onto two lines',
      }),
    })
    const indent = ' '.repeat(24)
    expect(help.split('\n')).toEqual([
      '  --wordy               One two three four five six seven eight nine ten eleven twelve',
      `${indent}${'thirteen fourteen'.padEnd(64)} [WORDY]`,
      `${indent}And a note`,
      `${indent}forced onto two lines`,
    ])
  })

  it('gives a flag too long for its column a line of its own', () => {
    const help = flagHelp({
      'a-rather-long-flag': flag({ type: 'string', value: 'MS', schema: z.string().optional(), help: 'Text' }),
    })
    expect(help.split('\n')).toEqual(['  --a-rather-long-flag MS', `${' '.repeat(24)}Text`])
  })
})

describe('commandHelp', () => {
  it('adds usage, what the command does, and -h, --help last', () => {
    const help = commandHelp({
      usage: 'till thing [options]',
      about: 'Does a thing.',
      flags: { json: flag({ type: 'boolean', schema: z.boolean().default(false), help: 'JSON' }) },
    })
    expect(help).toBe(
      'Usage: till thing [options]\n\nDoes a thing.\n\nOptions:\n  --json                JSON\n  -h, --help            Show this help\n',
    )
  })
})

describe('docs/operating.md', () => {
  it('lists every till serve flag, with its variable, in the order of --help', () => {
    const guide = readFileSync(new URL('../../../../docs/operating.md', import.meta.url), 'utf8')
    const start = guide.indexOf('## `till serve` flags')
    const table = guide.slice(start, guide.indexOf('\n## ', start + 1))
    const rows = [...table.matchAll(/^\| `--([a-z-]+)[^`]*` +\| (?:`([A-Z_]+)`)? *\|/gm)].map(([, name, env]) => [name, env ?? ''])
    expect(rows).toEqual(Object.entries(SERVE_FLAGS).map(([name, declaration]) => [name, declaration.env ?? '']))
  })
})
