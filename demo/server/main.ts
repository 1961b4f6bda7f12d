// `npm start` runs this (after installing dependencies): the Till service, the demo shop's backend and the
// built shop, until Ctrl-C. Flags: --port (shop, 5443), --till-port (4000, the API), --checkout-port (4443,
// the checkout page over HTTPS), --chain local (pay on a local anvil chain instead of with test wallets),
// --no-build, --state-file F (writes the addresses and the sandbox credentials as JSON, for the e2e suite),
// and any `till serve` flag after `--`.
import { chmodSync, rmSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { recordLocalChain } from '@till/devchain/record'
import { z } from 'zod'
import { startDemoStack } from './stack.ts'

const Port = z.coerce.number().int().min(0).max(65_535)
const Flags = z.object({
  port: Port.default(5443),
  'till-port': Port.default(4000),
  'checkout-port': Port.default(4443),
  'no-build': z.boolean().default(false),
  'state-file': z.string().optional(),
  chain: z
    .enum(['sandbox', 'local'], { error: 'must be sandbox (test wallets, the default) or local (a local anvil chain)' })
    .default('sandbox'),
})

function flags() {
  const { values, positionals } = parseArgs({
    options: {
      port: { type: 'string' },
      'till-port': { type: 'string' },
      'checkout-port': { type: 'string' },
      'no-build': { type: 'boolean' },
      'state-file': { type: 'string' },
      chain: { type: 'string' },
    },
    allowPositionals: true,
  })
  const parsed = Flags.safeParse(values)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  --${issue.path.join('.')}: ${issue.message}`)
    throw new Error(
      `invalid flags:\n${lines.join('\n')}\nUsage: demo [--port 5443] [--till-port 4000] [--checkout-port 4443] [--chain sandbox|local] [--no-build] [--state-file F] [-- <till serve flags>]`,
    )
  }
  return { ...parsed.data, tillArgs: positionals }
}

async function main(): Promise<void> {
  const options = flags()
  const stack = await startDemoStack({
    port: options.port,
    tillPort: options['till-port'],
    checkoutPort: options['checkout-port'],
    tillArgs: options.tillArgs,
    build: !options['no-build'],
    // Blocks every 2 s and 2 confirmations: the page shows "processing" for a moment, as on a real network.
    ...(options.chain === 'local' ? { localChain: { confirmations: 2, blockTimeSeconds: 2 } } : {}),
  })
  // So that `pnpm devchain pay` finds this chain (anvil's port is the OS's pick); removed when the demo ends.
  if (stack.localChain) process.once('exit', recordLocalChain({ ...stack.localChain, chainId: 31337 }))
  const stateFile = options['state-file']
  if (stateFile) {
    // It holds the sandbox key, and is only true while the stack runs: gone when the process ends, however
    // it ends short of SIGKILL (the signal handlers below end it through process.exit).
    process.once('exit', () => rmSync(stateFile, { force: true }))
    writeFileSync(stateFile, JSON.stringify({ shopUrl: stack.shopUrl, till: stack.till }), { mode: 0o600 })
    chmodSync(stateFile, 0o600)
  }
  process.stdout.write(
    `${[
      '',
      `  Demo shop   ${stack.shopUrl}   ← open this`,
      `  Till        ${stack.till.baseUrl}  (sandbox mode; the shop's backend holds the key below, browsers never see it)`,
      `    Api-Key      ${stack.till.apiKey}`,
      `    Merchant-Id  ${stack.till.merchantId}`,
      `  Checkout    ${stack.till.checkoutUrl}  (Till's payment page, over HTTPS, where the shop sends buyers)`,
      stack.till.dashboardInviteUrl
        ? `  Dashboard: ${stack.till.dashboardInviteUrl}  (the shop owner's single-use invitation: open it to make your account)`
        : // Passkeys take a host name: Till names its loopback address localhost for the dashboard.
          `  Dashboard: ${stack.till.baseUrl.replace('//127.0.0.1:', '//localhost:')}/dashboard/  (sign in as owner@sandbox.till.test)`,
      '',
      ...(stack.localChain
        ? [
            `  Local chain ${stack.localChain.rpcUrl}   (anvil, chain id 31337; inspect it with your own tools)`,
            `    USDC         ${stack.localChain.usdc}`,
            `    Dev wallet   ${stack.localChain.devWallet}   (the checkout page's "Local dev wallet" signs with it)`,
            `    Pay as a phone wallet would, from a terminal:  pnpm devchain pay '<ethereum: URI shown on the checkout page>'`,
            '',
          ]
        : []),
      '  The shop uses a certificate made at start-up: your browser will warn once; continue to the site.',
      '  Ctrl-C stops everything.',
      '',
    ].join('\n')}\n`,
  )
  let stopping = false
  const stop = (): void => {
    if (stopping) return
    stopping = true
    void stack.stop().then(() => {
      process.stdout.write('  Stopped: the shop, Till and its database.\n')
      process.exit(0)
    })
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  console.error(`demo: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
