import { mkdir, open, readFile, rm } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'

/**
 * PGlite is a database inside one process: two processes opening one data directory corrupt it. A pid file
 * beside the directory (`<dir>.lock`) keeps the second one out with a message that says what to do; a lock
 * left by a process that is gone is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const dir = resolve(dataDir)
  await mkdir(dirname(dir), { recursive: true })
  const lockPath = `${dir}.lock`
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx')
      await handle.writeFile(String(process.pid))
      await handle.close()
      return () => rm(lockPath, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = Number.parseInt(await readFile(lockPath, 'utf8').catch(() => ''), 10)
      if (Number.isInteger(holder) && isAlive(holder)) {
        throw new Error(
          `The data directory ${dir} is in use by another Till process (pid ${holder}). ` +
            'Stop that process first, or keep the data in PostgreSQL (--database-url) to share it between processes.',
        )
      }
      await rm(lockPath, { force: true })
    }
  }
  throw new Error(`Could not lock the data directory ${dir} (${lockPath}).`)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else — still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
