// The whole demo: the Till service (sandbox mode, its embedded PostgreSQL) as a child process, the built shop,
// and the shop's backend over HTTPS. `main.ts` runs it from the command line; it is also what the e2e
// suite's playwright.config.ts starts.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { spawnTill, type TillReady } from '@till/service/spawn'
import { createDemoApp } from './app.ts'
import { localhostCertificate } from './certificate.ts'

export const SHOP_DIR = fileURLToPath(new URL('../dist', import.meta.url))
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))

export interface StackOptions {
  /** The shop's HTTPS port (0: any free one). */
  port: number
  /** Till's HTTP port (0: any free one). */
  tillPort: number
  /** More `till serve` flags, e.g. ['--sandbox-hold-confirmations'] for tests. */
  tillArgs?: readonly string[]
  /** Rebuild demo/dist with Vite first. */
  build: boolean
  log?: (message: string, error?: unknown) => void
}

export interface DemoStack {
  /** https://127.0.0.1:<port> */
  shopUrl: string
  till: TillReady
  stop(): Promise<void>
}

/** Builds the shop into demo/dist and the elements' drop-in bundle, in a child process (build-shop.ts). */
export async function buildShop(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./build-shop.ts', import.meta.url))], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null]
  if (code !== 0) throw new Error(`building the shop failed (${signal ?? `exit code ${code}`})`)
}

export async function startDemoStack(options: StackOptions): Promise<DemoStack> {
  if (options.build) await buildShop()
  const till = await spawnTill({
    args: ['--sandbox', '--host', '127.0.0.1', '--port', String(options.tillPort), '--log-level', 'warn', ...(options.tillArgs ?? [])],
    cwd: REPO_ROOT,
    onStderr: (chunk) => process.stderr.write(chunk),
  })
  let server: Server | undefined
  try {
    const { key, cert } = await localhostCertificate()
    server = createServer({ key, cert })
    server.listen(options.port, '127.0.0.1')
    await once(server, 'listening')
    // The app is made once the port, and so the shop's origin, is known; requests only come after.
    const shopUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
    server.on(
      'request',
      createDemoApp({
        till: { baseUrl: till.ready.baseUrl, apiKey: till.ready.apiKey, merchantId: till.ready.merchantId },
        shopOrigin: shopUrl,
        shopDir: SHOP_DIR,
        ...(options.log ? { log: options.log } : {}),
      }),
    )
    const listening = server
    return {
      shopUrl,
      till: till.ready,
      async stop() {
        listening.closeAllConnections()
        await new Promise<void>((resolve) => listening.close(() => resolve()))
        await till.stop()
      },
    }
  } catch (error) {
    server?.close()
    await till.stop()
    throw error
  }
}
