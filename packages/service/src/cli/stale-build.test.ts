// `till` warns when a source is newer than the build it runs; a typecheck's cache is not a source.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { staleBuild } from '../../bin/stale-build.mjs'

let root: string
const built = new Date('2026-01-02T00:00:00Z')
const before = new Date('2026-01-01T00:00:00Z')
const after = new Date('2026-01-03T00:00:00Z')

async function file(relative: string, at: Date): Promise<void> {
  const full = path.join(root, relative)
  await mkdir(path.dirname(full), { recursive: true })
  await writeFile(full, '')
  await utimes(full, at, at)
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'till-stale-'))
  await file('dist/cli/main.js', built)
  await file('src/cli/main.ts', before)
})
afterEach(() => rm(root, { recursive: true, force: true }))

const stale = () => staleBuild(pathToFileURL(`${root}/`))

test('a build newer than every source is not stale', async () => {
  expect(stale()).toBeUndefined()
})

test('a source edited after the build is named', async () => {
  await file('src/app.ts', after)
  expect(stale()).toBe(path.join('src', 'app.ts'))
})

test("tests and tsc's incremental cache, written after the build, do not make it stale", async () => {
  await file('src/app.test.ts', after)
  await file('src/checkout/page/tsconfig.tsbuildinfo', after)
  expect(stale()).toBeUndefined()
})
