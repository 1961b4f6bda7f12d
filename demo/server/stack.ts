// The whole demo: the Till service (sandbox mode, its embedded PostgreSQL) as a child process, the built shop,
// the shop's backend over HTTPS, and with `chain: 'local'` a local chain (anvil) the payments are made on. `main.ts` runs it from the command line; it is also what the e2e
// suite's playwright.config.ts starts.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import type { RequestListener } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { TillClient } from '@till/client'
import type { TillLocalChain } from '@till/devchain'
import { type SpawnedTill, spawnTill, type TillReady } from '@till/service/spawn'
import { createDemoApp } from './app.ts'
import { LOGO_PATH, registerShop } from './brand.ts'
import { localhostCertificate } from './certificate.ts'
import { type CheckoutFront, startCheckoutFront } from './checkout-front.ts'

export const SHOP_DIR = fileURLToPath(new URL('../dist', import.meta.url))
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))

export interface StackOptions {
  /** The shop's HTTPS port (0: any free one). */
  port: number
  /** Till's HTTP port (0: any free one), for the shop's backend. */
  tillPort: number
  /** The HTTPS port buyers open Till's checkout on (0: any free one); see checkout-front.ts. */
  checkoutPort?: number
  /** More `till serve` flags, e.g. ['--sandbox-hold-confirmations'] for tests. */
  tillArgs?: readonly string[]
  /** Rebuild demo/dist with Vite first. */
  build: boolean
  /**
   * The sandbox's payments are paid on a local chain (anvil) with real (local) tokens, through the checkout
   * page's "Local dev wallet" or a browser wallet, instead of with test wallets. Without `blockTimeSeconds`
   * anvil mines each transaction at once, and only then.
   */
  localChain?: { confirmations: number; blockTimeSeconds?: number }
  log?: (message: string, error?: unknown) => void
}

export interface DemoStack {
  /** https://127.0.0.1:<port> */
  shopUrl: string
  till: TillReady
  /**
   * With `chain: 'local'`: the chain's JSON-RPC address and its USDC token, for one's own tools; the dev
   * wallet buyers pay from, and the shop's receiving account (CAIP-10), whose wallet pays refunds.
   */
  localChain?: { rpcUrl: string; usdc: string; devWallet: string; merchantAccount: string }
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
  const { key, cert } = await localhostCertificate()
  // Till fetches the shop's logo over the shop's HTTPS, verifying it: it trusts this run's certificate.
  const certDir = await mkdtemp(path.join(tmpdir(), 'till-demo-'))
  const caFile = path.join(certDir, 'shop-ca.pem')
  await writeFile(caFile, cert, { mode: 0o600 })
  let till: SpawnedTill | undefined
  let server: Server | undefined
  let chain: TillLocalChain | undefined
  let front: CheckoutFront | undefined
  try {
    front = await startCheckoutFront({ key, cert, port: options.checkoutPort ?? 0 })
    // viem and anvil's package load only for a local chain: the sandbox-only demo has no use for them.
    chain = options.localChain
      ? await (await import('@till/devchain')).startTillLocalChain({ dir: certDir, ...options.localChain })
      : undefined
    till = await spawnTill({
      args: [
        '--sandbox',
        '--host',
        '127.0.0.1',
        '--port',
        String(options.tillPort),
        '--log-level',
        'warn',
        '--checkout-url',
        `${front.origin}/checkout`,
        '--trust-proxy',
        ...(chain ? ['--config', chain.configFile] : []),
        ...(options.tillArgs ?? []),
      ],
      cwd: REPO_ROOT,
      env: { NODE_EXTRA_CA_CERTS: caFile },
      onStderr: (chunk) => process.stderr.write(chunk),
    })
    front.forwardTo(till.ready.baseUrl)
    const logo = await readFile(path.join(SHOP_DIR, LOGO_PATH))
    server = createServer({ key, cert })
    // Until the shop is registered with Till, it serves only its logo (Till fetches it during the call).
    let handle: RequestListener = (request, response) => {
      if (request.url === LOGO_PATH) response.writeHead(200, { 'content-type': 'image/png' }).end(logo)
      else response.writeHead(503, { 'retry-after': '1' }).end()
    }
    server.on('request', (request, response) => handle(request, response))
    server.listen(options.port, '127.0.0.1')
    await once(server, 'listening')
    const shopUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
    const client = new TillClient({ baseUrl: till.ready.baseUrl, apiKey: till.ready.apiKey })
    const { merchant, webhookSecret } = await registerShop(client, shopUrl, chain ? [chain.merchantAccount] : []).finally(() =>
      client.close(),
    )
    const credentials = { baseUrl: till.ready.baseUrl, apiKey: till.ready.apiKey, merchantId: merchant.id }
    handle = createDemoApp({
      till: credentials,
      shopOrigin: shopUrl,
      shopDir: SHOP_DIR,
      chain: chain ? 'local' : 'sandbox',
      logo,
      webhookSecret,
      ...(options.log ? { log: options.log } : {}),
    })
    const listening = server
    const running = till
    const runningChain = chain
    const runningFront = front
    return {
      shopUrl,
      ...(chain
        ? { localChain: { rpcUrl: chain.anvil.url, usdc: chain.usdc, devWallet: chain.devWallet, merchantAccount: chain.merchantAccount } }
        : {}),
      // The shop's own merchant, not the sandbox's seeded one: its payments show "Till Tea" and its logo.
      till: { ...till.ready, merchantId: merchant.id },
      async stop() {
        listening.closeAllConnections()
        await new Promise<void>((resolve) => listening.close(() => resolve()))
        await runningFront.close()
        await running.stop()
        await runningChain?.stop()
        await rm(certDir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    server?.close()
    await front?.close()
    await till?.stop()
    await chain?.stop()
    await rm(certDir, { recursive: true, force: true })
    throw error
  }
}
