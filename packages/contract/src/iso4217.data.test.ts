import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const here = fileURLToPath(new URL('.', import.meta.url))

describe('gen-iso4217 script', () => {
  it('reproduces the committed table byte for byte', () => {
    const dir = mkdtempSync(join(tmpdir(), 'iso4217-'))
    try {
      const out = join(dir, 'iso4217.data.ts')
      execFileSync(process.execPath, [join(here, '..', 'scripts', 'gen-iso4217.mjs'), out], { stdio: 'pipe' })
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(here, 'iso4217.data.ts'), 'utf8'))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
