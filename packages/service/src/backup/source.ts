import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { ROLE } from '../db/embedded/cluster.ts'
import { lockHolder } from '../db/embedded/lock.ts'
import { isAlive } from '../db/embedded/processes.ts'
import { DATABASE, startEmbeddedServer } from '../db/embedded/server.ts'
import { BackupRefused } from './format.ts'

/** A connection URL to a data directory's server, and what to do once done with it. */
export type ReachedServer = { url: string; dir: string; running: boolean; release(): Promise<void> }

// The data directory's layout, as server.ts makes it: the cluster, and the password Till connects with.
const clusterOf = (dir: string) => join(dir, 'postgres')
const passwordOf = (dir: string) => join(dir, 'password')

/**
 * The server holding `dataDir`'s data. While a Till serves the directory its server is that Till's: a
 * second server cannot open the same cluster, so this process connects to the running one, as Till itself
 * does (127.0.0.1, the port in postmaster.pid, the stored password). Otherwise the server is started for
 * this process alone and stopped again; the directory's lock keeps a `till serve` out meanwhile.
 */
export async function reachDataDir(dataDir: string, log: (message: string) => void): Promise<ReachedServer> {
  const dir = resolve(dataDir)
  if (!existsSync(join(clusterOf(dir), 'PG_VERSION'))) {
    throw new BackupRefused(`${dir} holds no Till database: give --data-dir the directory \`till serve --data-dir\` uses.`)
  }
  const holder = await lockHolder(dir)
  if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
    return { url: await runningServerUrl(dir, holder), dir, running: true, release: async () => {} }
  }
  const server = await startEmbeddedServer({ dataDir: dir, log })
  return { url: server.url(), dir, running: false, release: () => server.stop() }
}

/** postmaster.pid's lines: pid, data directory, start time, port, socket directory, address, shared memory key, status. */
async function runningServerUrl(dir: string, holder: number): Promise<string> {
  const lines = (await readFile(join(clusterOf(dir), 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')
  const port = Number(lines[3])
  if (lines[7]?.trim() !== 'ready' || !Number.isInteger(port) || port <= 0) {
    throw new Error(
      `Till (pid ${holder}) uses ${dir}, but its PostgreSQL server does not accept connections right now ` +
        '(it is starting, stopping or restarting). Try again in a moment.',
    )
  }
  const password = (await readFile(passwordOf(dir), 'utf8')).trim()
  return `postgres://${ROLE}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`
}
