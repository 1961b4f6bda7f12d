// `--database-url`: Till on a PostgreSQL server it does not run itself. Here that is the machine's own
// PostgreSQL from apt (Debian keeps each version's programs in /usr/lib/postgresql/<major>/bin), started
// as a throwaway cluster; without one the test says why it skipped.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { runTill, startTill } from '../src/cli/till-process.test-helper.ts'
import { programsIn, type PostgresPrograms } from '../src/db/embedded/binaries.ts'
import { startEmbeddedServer, type EmbeddedServer } from '../src/db/embedded/server.ts'

const DEBIAN_ROOT = '/usr/lib/postgresql'

function aptPostgres(): PostgresPrograms | undefined {
  if (!existsSync(DEBIAN_ROOT)) return undefined
  const majors = readdirSync(DEBIAN_ROOT)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))
  for (const major of majors) {
    try {
      return programsIn(join(DEBIAN_ROOT, major, 'bin'))
    } catch {
      // only the client of that version is installed
    }
  }
  return undefined
}

const programs = aptPostgres()
let server: EmbeddedServer | undefined
afterAll(() => server?.stop())

describe('till on an external PostgreSQL server (--database-url)', () => {
  it('migrates it, serves payments from it, and leaves the server running when it stops', async (context) => {
    if (!programs) context.skip(`no PostgreSQL server from apt in ${DEBIAN_ROOT}/*/bin (apt-get install postgresql runs this test)`)
    server = await startEmbeddedServer({ programs: programs! })
    const url = server.url()

    const migrated = await runTill(['migrate', '--database-url', url])
    expect(migrated.code, migrated.stderr).toBe(0)
    const till = await startTill(['--sandbox', '--database-url', url])
    const headers = {
      'api-key': String(till.ready.apiKey),
      'merchant-id': String(till.ready.merchantId),
      'content-type': 'application/json',
    }
    const created = await fetch(`${String(till.ready.baseUrl)}/v1/merchant/payment`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ amount: { unit: 'iso4217/EUR', value: '990' }, referenceId: 'external-1' }),
    })
    expect(created.status).toBe(201)
    expect(await till.stop()).toBe(0)

    // The server is the operator's: Till stopped, it still answers, and it holds the payment.
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      const rows = await client.query('SELECT amount_minor::text AS amount FROM payments WHERE reference_id = $1', ['external-1'])
      expect(rows.rows).toEqual([{ amount: '990' }])
    } finally {
      await client.end()
    }
  }, 90_000)
})
