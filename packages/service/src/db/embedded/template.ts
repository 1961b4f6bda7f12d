import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chown, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ServerAccount } from './account.ts'
import type { PostgresPrograms } from './binaries.ts'
import { initCluster, runToEnd } from './cluster.ts'

// Bumped whenever initCluster's options change, so an old template is never copied.
const TEMPLATE_FORMAT = 1

/**
 * A throwaway cluster is a copy of one initdb'd once per machine, user and PostgreSQL major version:
 * initdb takes 0.5–0.7 s here, copying its 31 MB result 0.07 s, most of `till serve`'s start-up. The copy
 * keeps the template's generated password, which sits beside it readable only by its owner, who could
 * read the copied data directly anyway. Durable clusters (--data-dir) are initdb'd as usual, with fsync.
 */
export async function copyTemplateCluster(input: {
  programs: PostgresPrograms
  account: ServerAccount | undefined
  dataDir: string
}): Promise<{ password: string }> {
  const template = await templateCluster(input.programs, input.account)
  await runToEnd('cp', ['-R', '-p', join(template, 'postgres'), input.dataDir], input.account)
  return { password: (await readFile(join(template, 'password'), 'utf8')).trim() }
}

async function templateCluster(programs: PostgresPrograms, account: ServerAccount | undefined): Promise<string> {
  const owner = account?.uid ?? process.getuid?.() ?? 0
  const dir = join(tmpdir(), `till-template-pg${programs.major}-f${TEMPLATE_FORMAT}-u${owner}`)
  if (existsSync(join(dir, 'postgres', 'PG_VERSION')) && existsSync(join(dir, 'password'))) return dir

  // Made aside and renamed into place whole: a concurrent Till sees a complete template or none.
  const building = await mkdtemp(`${dir}.building-`)
  try {
    if (account) await chown(building, account.uid, account.gid)
    const password = randomBytes(24).toString('base64url')
    await writeFile(join(building, 'password'), `${password}\n`, { mode: 0o600 })
    await initCluster({ programs, account, dataDir: join(building, 'postgres'), password, durable: false, logFile: '' })
    await rename(building, dir)
  } catch (error) {
    await rm(building, { recursive: true, force: true })
    // Another Till renamed its template into place first: use that one.
    if (existsSync(join(dir, 'postgres', 'PG_VERSION'))) return dir
    throw error
  }
  return dir
}
