// The names the bundle shortens (page-mangle.ts) must be the page's own: esbuild renames every property of such
// a name, in the page's code, in lit-html and in whatever it reads of the service's data alike.
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { PRIVATE_NAMES } from './page-mangle.ts'

const pageDir = fileURLToPath(new URL('./page/', import.meta.url))
const require = createRequire(import.meta.url)

function sources(dir: string, keep: (file: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(full, keep)
    return keep(entry.name) ? [readFileSync(full, 'utf8')] : []
  })
}

const page = sources(pageDir, (name) => name.endsWith('.ts') && !name.endsWith('.test.ts')).join('\n')
// The page's strings in code, where a name would be data (a type's `Pick<Model, 'now'>` names a member).
const pageStrings = page.replace(/\b(?:Pick|Omit)<[^>]*>/g, '')
// The contract as this service imports it: its built modules, every name of its data among them.
const contract = sources(path.dirname(require.resolve('@till/contract')), (name) => name.endsWith('.js')).join('\n')
const litHtml = readFileSync(require.resolve('lit-html'), 'utf8')

/** The entries of the script's lazily loaded chunks (page-build.ts). */
const LAZY_MODULES = ['wallets/browser-path.ts', 'wallets/dev-wallet.ts', 'wallets/phone-wallet.ts', 'outcome.ts']

describe('the names the bundle shortens', () => {
  it.each(PRIVATE_NAMES)('%s is a member the page names in its code', (name) => {
    expect(page).toMatch(new RegExp(`(?:\\.${name}\\b|^\\s*${name}\\??[:(]|[{,]\\s*${name}\\s*[,}])`, 'm'))
  })

  it.each(PRIVATE_NAMES)('%s is never data: the page never has it as a string, so never looks it up by a computed key', (name) => {
    expect(pageStrings).not.toMatch(new RegExp(`'${name}'`))
  })

  it.each(PRIVATE_NAMES)("%s is no name of the service's data nor of lit-html", (name) => {
    const word = new RegExp(`\\b${name}\\b`)
    expect(contract).not.toMatch(word)
    expect(litHtml).not.toMatch(word)
  })

  // A lazily loaded chunk keeps its exports' names, while the script's access to them would be shortened.
  it.each(LAZY_MODULES)('no export of the lazy module %s is among them', (file) => {
    const source = readFileSync(path.join(pageDir, file), 'utf8')
    const exported = [...source.matchAll(/^export (?:async )?(?:function|const|class) (\w+)/gm)].map((match) => match[1])
    expect(exported.length).toBeGreaterThan(0)
    expect(exported.filter((name) => (PRIVATE_NAMES as readonly string[]).includes(name ?? ''))).toEqual([])
  })
})
