import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase, type TestDatabase } from '../../test/fixtures.ts'
import { loadMigrations, migrate } from './migrate.ts'

let tdb: TestDatabase
beforeAll(async () => {
  tdb = await openTestDatabase()
})
afterAll(() => tdb.close())

describe('migrations', () => {
  it('are applied once: running them again changes nothing', async () => {
    const files = await loadMigrations()
    expect(files.length).toBeGreaterThan(0)
    expect(await migrate(tdb.db)).toEqual([])
    const applied = await tdb.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')
    expect(applied.map((row) => row.name)).toEqual(files.map((file) => file.name))
  })
})
