// HAProxy for the load-balancer test and the bench: Debian's package, installed with apt-get when missing
// (as Chromium is for the e2e suite), running the configuration docs/operations.md gives, on loopback.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const DEBIAN_HAPROXY = '/usr/sbin/haproxy'
const OPERATIONS = new URL('../../../docs/operations.md', import.meta.url)

/** HAProxy's path, installed with apt-get if it is missing; or why it cannot be had here. */
export function haproxyBinary(): { path: string } | { missing: string } {
  const found = [process.env.HAPROXY_PATH, DEBIAN_HAPROXY].find((path) => path && existsSync(path))
  if (found) return { path: found }
  if (!existsSync('/usr/bin/apt-get')) return { missing: 'haproxy is not installed and there is no apt-get to install it with' }
  if (process.getuid?.() !== 0) return { missing: 'haproxy is not installed; `sudo apt-get install haproxy` installs it' }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const install = () => spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'haproxy'], { env, encoding: 'utf8' })
  let result = install()
  // A fresh machine's package lists may be empty or stale.
  if (result.status !== 0) {
    spawnSync('apt-get', ['update'], { env, encoding: 'utf8' })
    result = install()
  }
  if (result.status === 0 && existsSync(DEBIAN_HAPROXY)) return { path: DEBIAN_HAPROXY }
  return { missing: `apt-get could not install haproxy: ${(result.stderr || result.error?.message || '').trim().split('\n').at(-1)}` }
}

/** The configuration docs/operations.md gives, with its frontend and servers moved to the given ports. */
export function documentedConfig(frontendPort: number, serverPorts: readonly number[]): string {
  const text = readFileSync(OPERATIONS, 'utf8')
  const block = /```haproxy\n([\s\S]*?)```/.exec(text)?.[1]
  if (!block) throw new Error('docs/operations.md has no ```haproxy block')
  const lines = block.split('\n')
  const firstServer = lines.findIndex((line) => /^\s+server till\d/.test(line))
  if (firstServer === -1 || !block.includes('bind 127.0.0.1:8080')) throw new Error('the documented configuration changed shape')
  const indent = lines[firstServer]?.match(/^\s+/)?.[0] ?? '    '
  const servers = serverPorts.map((port, index) => `${indent}server till${index + 1} 127.0.0.1:${port} check`)
  const kept = lines.filter((line) => !/^\s+server till\d/.test(line))
  kept.splice(firstServer, 0, ...servers)
  return kept.join('\n').replace('bind 127.0.0.1:8080', `bind 127.0.0.1:${frontendPort}`)
}

/** A port free right now on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })

export type RunningHaproxy = { url: string; stop(): Promise<void> }

/** Runs HAProxy in the foreground with `config`; resolves once its frontend accepts connections. */
export async function startHaproxy(binary: string, config: string, port: number): Promise<RunningHaproxy> {
  const dir = await mkdtemp(join(tmpdir(), 'till-haproxy-'))
  const file = join(dir, 'haproxy.cfg')
  await writeFile(file, config)
  const check = spawnSync(binary, ['-c', '-f', file], { encoding: 'utf8' })
  if (check.status !== 0) throw new Error(`haproxy refused the configuration:\n${check.stdout}${check.stderr}`)
  const child: ChildProcess = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = once(child, 'exit')
  let gone = false
  void exited.then(() => (gone = true))
  while (!(await accepts(port))) {
    if (gone) throw new Error(`haproxy exited: ${stderr}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (!gone) {
        child.kill('SIGTERM')
        await exited
      }
      await rm(dir, { recursive: true, force: true })
    },
  }
}
