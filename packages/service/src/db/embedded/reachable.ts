import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chmod, mkdtemp, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { ServerAccount } from './account.ts'
import { programsIn, type PostgresPrograms } from './binaries.ts'
import { runToEnd } from './cluster.ts'

/** Whether `account` may run `file`: asked of the system as that user, so groups and ACLs count. */
function canRun(file: string, account: ServerAccount): boolean {
  return spawnSync('test', ['-x', file], { uid: account.uid, gid: account.gid }).status === 0
}

/**
 * As root the server runs as another user, who must be able to run the programs. Installed under a
 * private directory (a checkout in /root, a mktemp'd CI folder) they are out of its reach: then their
 * installation (bin, lib, share: about 60 MB) is copied once into the temporary directory, readable by
 * all, and reused by later starts.
 */
export async function reachablePrograms(programs: PostgresPrograms, account: ServerAccount | undefined): Promise<PostgresPrograms> {
  if (!account || canRun(programs.postgres, account)) return programs
  const installation = dirname(programs.binDir)
  const tag = createHash('sha256').update(installation).digest('hex').slice(0, 12)
  const copy = join(tmpdir(), `till-postgres-${programs.major}-${tag}`)
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    const building = await mkdtemp(`${copy}.building-`)
    try {
      await chmod(building, 0o755)
      await runToEnd('cp', ['-R', '-p', `${installation}/.`, building], undefined)
      await rename(building, copy)
    } catch (error) {
      await rm(building, { recursive: true, force: true })
      // Another Till put its copy in place first: use that one.
      if (!existsSync(join(copy, 'bin', 'postgres'))) throw error
    }
  }
  const reachable = programsIn(join(copy, 'bin'))
  if (!canRun(reachable.postgres, account)) {
    throw new Error(`PostgreSQL cannot run as root, and the user ${account.name} cannot run ${reachable.postgres} either.`)
  }
  return reachable
}
