import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPGlite } from './pglite.ts'

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'till-pglite-'))
})
afterAll(() => rm(root, { recursive: true, force: true }))

describe('PGlite in a data directory', () => {
  it('creates missing parent folders, keeps data across opens, and lets one opener in at a time', async () => {
    const dataDir = join(root, 'nested', 'data')
    const first = await openPGlite({ dataDir })
    await first.exec('CREATE TABLE kept (value text); INSERT INTO kept VALUES ($$still here$$)')
    await expect(openPGlite({ dataDir })).rejects.toThrow(/in use by another Till process/)
    await first.close()

    const second = await openPGlite({ dataDir })
    expect(await second.query('SELECT value FROM kept')).toEqual([{ value: 'still here' }])
    await second.close()
  }, 60_000)
})
