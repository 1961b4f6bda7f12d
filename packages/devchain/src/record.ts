// Where `npm start -- --chain local` says which local chain it started (anvil listens on a port the OS picks),
// so that `pnpm devchain pay` finds it without being told. Only true while that demo runs: the demo removes
// it when it stops, and a record whose process is gone (killed) is not read. Plain Node: the demo loads this
// without viem.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** node_modules/.till/local-chain.json at the repository's root, beside `npm start`'s build stamps. */
export const LOCAL_CHAIN_RECORD = fileURLToPath(new URL('../../../node_modules/.till/local-chain.json', import.meta.url))

export type LocalChainRecord = {
  rpcUrl: string
  chainId: number
  /** The USDC test token's contract. */
  usdc: string
  /** The dev account holding USDC. */
  devWallet: string
  /** The demo's process. */
  pid: number
}

/** Records this process's local chain; the function returned removes the record if it is still this process's. */
export function recordLocalChain(chain: Omit<LocalChainRecord, 'pid'>, file = LOCAL_CHAIN_RECORD): () => void {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify({ ...chain, pid: process.pid }, null, 2)}\n`)
  return () => {
    if (readLocalChainRecord(file)?.pid === process.pid) rmSync(file, { force: true })
  }
}

/** The running demo's local chain, or undefined when no demo recorded one or its process is gone. */
export function readLocalChainRecord(file = LOCAL_CHAIN_RECORD): LocalChainRecord | undefined {
  let record: Partial<LocalChainRecord>
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalChainRecord>
  } catch {
    return undefined
  }
  if (typeof record.rpcUrl !== 'string' || typeof record.pid !== 'number' || !alive(record.pid)) return undefined
  return record as LocalChainRecord
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, as another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
