import { pino, type Logger } from 'pino'
import { createApp } from '../app.ts'
import { ServeConfig, SERVE_ENV, SERVE_OPTIONS } from '../config/serve-config.ts'
import { describeStorage, openDatabase } from '../db/open.ts'
import { systemClock } from '../domain/clock.ts'
import { ensureSandboxAccounts, type SandboxAccounts } from '../sandbox/seed.ts'
import { parseCommand } from './args.ts'

export const SERVE_HELP = `Usage: till serve [options]

Starts the Till payments service.

Options:
  --port N              Port to listen on; 0 picks any free port (default 4000)      [TILL_PORT]
  --host HOST           Address to listen on (default 127.0.0.1)                     [TILL_HOST]
  --data-dir DIR        Keep data in embedded PGlite in DIR                          [TILL_DATA_DIR]
  --database-url URL    Use a PostgreSQL server instead of PGlite                    [DATABASE_URL]
                        (with neither, PGlite runs in memory and nothing is kept)
  --sandbox             Sandbox mode: a test partner, merchant and API key, and the
                        simulate endpoint                                            [TILL_SANDBOX]
  --sandbox-api-key K   Keep this sandbox key instead of issuing a new one           [TILL_SANDBOX_API_KEY]
  --payment-ttl SEC     Seconds a buyer has to pay before a payment expires (900)    [TILL_PAYMENT_TTL]
  --poll-ms MS          Status polling interval suggested to merchants (2000)        [TILL_POLL_MS]
  --public-url URL      Address clients reach this service at (default: listen one)  [TILL_PUBLIC_URL]
  --checkout-url URL    Base address of the hosted checkout page
                        (default: <public-url>/checkout)                             [TILL_CHECKOUT_URL]
  --log-level LEVEL     fatal, error, warn, info, debug, trace or silent (info)      [TILL_LOG_LEVEL]
  --status-cache-size N Payment statuses kept in memory for status reads; 0 turns
                        the cache off (100000)                                       [TILL_STATUS_CACHE_SIZE]
  --sandbox-confirm-ms MS
                        How long the slow test wallet's payments stay processing
                        (8000)                                                       [TILL_SANDBOX_CONFIRM_MS]
  --trust-proxy         Take the client address from X-Forwarded-For (behind a
                        reverse proxy), for the checkout page's rate limits          [TILL_TRUST_PROXY]
  --json                Print one JSON line once ready: baseUrl, checkoutUrl and, in
                        sandbox mode, apiKey, merchantId and version. Logs go to stderr.
  -h, --help            Show this help
`

const SHUTDOWN_GRACE_MS = 10_000

export async function serve(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const config = parseCommand({ argv, command: 'serve', options: SERVE_OPTIONS, schema: ServeConfig, env, fromEnv: SERVE_ENV })
  if (config === 'help') {
    process.stdout.write(SERVE_HELP)
    return 0
  }
  // In --json mode stdout carries exactly one line, so the logs go to stderr.
  const logger: Logger = pino(
    { level: config['log-level'], redact: ['req.headers["api-key"]', 'req.headers.authorization'] },
    pino.destination({ dest: config.json ? 2 : 1, sync: false }),
  )
  const storage = { dataDir: config['data-dir'], databaseUrl: config['database-url'] }
  const db = await openDatabase(storage)
  const sandbox: SandboxAccounts | undefined = config.sandbox
    ? await ensureSandboxAccounts(db, systemClock, config['sandbox-api-key'])
    : undefined

  let checkoutUrl = ''
  const app = await createApp({
    db,
    logger,
    config: {
      sandbox: config.sandbox,
      paymentTtlSeconds: config['payment-ttl'],
      pollInMs: config['poll-ms'],
      statusCacheEntries: config['status-cache-size'],
      sandboxSlowConfirmMs: config['sandbox-confirm-ms'],
      trustProxy: config['trust-proxy'],
      checkoutUrl: () => checkoutUrl,
    },
  })
  await app.listen({ port: config.port, host: config.host })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  const baseUrl = (config['public-url'] ?? `http://${host}:${port}`).replace(/\/+$/, '')
  checkoutUrl = (config['checkout-url'] ?? `${baseUrl}/checkout`).replace(/\/+$/, '')

  logger.info({ baseUrl, storage: describeStorage(storage), sandbox: config.sandbox }, 'till is ready')
  if (config.json) {
    process.stdout.write(
      `${JSON.stringify({
        baseUrl,
        checkoutUrl,
        ...(sandbox ? { apiKey: sandbox.apiKey, merchantId: sandbox.merchantId, version: sandbox.version } : {}),
      })}\n`,
    )
  } else {
    process.stdout.write(readyBanner(baseUrl, checkoutUrl, describeStorage(storage), sandbox))
  }

  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      logger.info({ signal }, 'shutting down: finishing requests in flight')
      // A second signal, or a stuck request, must not keep the process forever.
      process.once(signal, () => process.exit(130))
      setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref()
      resolve()
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  await app.close()
  await db.close()
  logger.info('stopped')
  logger.flush()
  return 0
}

function readyBanner(baseUrl: string, checkoutUrl: string, storage: string, sandbox: SandboxAccounts | undefined): string {
  const lines = [`Till is listening on ${baseUrl}`, `  data           ${storage}`, `  checkout page  ${checkoutUrl}/<paymentId>`, `  OpenAPI        ${baseUrl}/openapi.json`]
  if (sandbox) {
    lines.push(
      'Sandbox mode:',
      `  Api-Key        ${sandbox.apiKey}`,
      `  Merchant-Id    ${sandbox.merchantId}`,
      `  Pay-Version    ${sandbox.version}`,
    )
  }
  return `${lines.join('\n')}\n`
}
