import { open, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { isAlive } from './processes.ts'

export const LOCK_FILE = 'till.pid'

/** The pid recorded in `dir`'s lock, if any. */
export async function lockHolder(dir: string): Promise<number | undefined> {
  const holder = Number.parseInt(await readFile(join(dir, LOCK_FILE), 'utf8').catch(() => ''), 10)
  return Number.isInteger(holder) && holder > 0 ? holder : undefined
}

/**
 * One Till process per data directory: a pid file in it keeps a second one out with a message that says
 * what to do. A lock left by a process that is gone (a crash, kill -9) is taken over.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const lockPath = join(dir, LOCK_FILE)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx', 0o644)
      await handle.writeFile(String(process.pid))
      await handle.close()
      return () => rm(lockPath, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = await lockHolder(dir)
      if (holder !== undefined && isAlive(holder)) {
        throw new Error(
          `The data directory ${dir} is in use by another Till process (pid ${holder}). Stop that process first, ` +
            'or give this one its own --data-dir, or share one PostgreSQL server between them with --database-url.',
        )
      }
      await rm(lockPath, { force: true })
    }
  }
  throw new Error(`Could not lock the data directory ${dir} (${lockPath}).`)
}
