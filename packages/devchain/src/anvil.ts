// A real local chain for the EVM rail's tests: anvil from npm (its binary ships in the platform package),
// mining on demand, on 127.0.0.1 with a port the OS picks.
import { type ChildProcessByStdio, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import type { Readable } from 'node:stream'

const EXE = process.platform === 'win32' ? 'anvil.exe' : 'anvil'
const PLATFORM = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`

/** The anvil binary: $ANVIL_BIN, else the one in the wrapper package's platform dependency. */
export function anvilBinary(): string {
  if (process.env.ANVIL_BIN) return process.env.ANVIL_BIN
  const wrapper = createRequire(import.meta.url).resolve('@foundry-rs/anvil/package.json')
  return createRequire(wrapper).resolve(`${PLATFORM}/bin/${EXE}`)
}

export type Anvil = { url: string; chainId: number; stop(): Promise<void> }

/** Starts anvil (chain 31337 unless told, anvil's default dev accounts) and resolves once it listens. */
export async function startAnvil(
  options: {
    automine?: boolean
    blockTimeSeconds?: number
    port?: number
    chainId?: number
    /** Keep no past states (blocks, transactions and logs stay): mining many blocks is faster; state can only be read at the head. */
    pruneHistory?: boolean
  } = {},
): Promise<Anvil> {
  const chainId = options.chainId ?? 31337
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(options.port ?? 0),
    '--chain-id',
    String(chainId),
    ...(options.automine === false ? ['--no-mining'] : []),
    // Blocks also come on a timer, as on a real network: confirmations then arrive by themselves.
    ...(options.blockTimeSeconds ? ['--block-time', String(options.blockTimeSeconds)] : []),
    ...(options.pruneHistory ? ['--prune-history'] : []),
  ]
  const child: ChildProcessByStdio<null, Readable, Readable> = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] })
  // anvil outlives a parent that exits without stopping it.
  const kill = () => child.kill('SIGKILL')
  process.once('exit', kill)
  const url = await new Promise<string>((resolve, reject) => {
    let output = ''
    child.stdout.setEncoding('utf8')
    // Read until it listens, then no more: anvil logs every call and block, and searching all of that again
    // at each chunk took a busy caller's time (13% of the watcher bench's).
    const read = (chunk: string) => {
      output += chunk
      const listening = /Listening on ([0-9.]+):([0-9]+)/.exec(output)
      if (!listening) return
      child.stdout.off('data', read)
      resolve(`http://${listening[1]}:${listening[2]}`)
    }
    child.stdout.on('data', read)
    child.once('exit', (code) => reject(new Error(`anvil exited (${code}) before listening:\n${output}`)))
  })
  child.stdout.resume()
  return {
    url,
    chainId,
    async stop() {
      process.off('exit', kill)
      if (child.exitCode !== null || child.signalCode !== null) return
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      child.kill('SIGTERM')
      await gone
    },
  }
}
