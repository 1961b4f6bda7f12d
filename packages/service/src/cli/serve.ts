import type { TillReadyLine } from '@till/contract'
import { pino, type Logger } from 'pino'
import type { z } from 'zod'
import { commandHelp } from '../config/flag-help.ts'
import { ServeConfig, SERVE_FLAGS } from '../config/serve-flags.ts'
import { dashboardPeople, dashboardUrls } from '../dashboard/index.ts'
import { describeStorage, openDatabase } from '../db/open.ts'
import { openPostgres } from '../db/postgres.ts'
import { beginDraining } from '../http/drain.ts'
import { listenForMetrics, type MetricsListener, tillMetrics } from '../metrics/index.ts'
import type { Database } from '../db/port.ts'
import { systemClock } from '../core/clock.ts'
import { loadEvmConfig } from '../evm/index.ts'
import { ensureSandboxAccounts, type SandboxAccounts } from '../sandbox/index.ts'
import { parseCommand } from './args.ts'

export const SERVE_HELP = commandHelp({ usage: 'till serve [options]', about: 'Starts the Till payments service.', flags: SERVE_FLAGS })

const SHUTDOWN_GRACE_MS = 10_000

export async function serve(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const config = parseCommand({ argv, command: 'serve', flags: SERVE_FLAGS, schema: ServeConfig, env })
  if (config === 'help') {
    process.stdout.write(SERVE_HELP)
    return 0
  }
  // In --json mode stdout carries exactly one line, so the logs go to stderr.
  const logger: Logger = pino(
    { level: config['log-level'], redact: ['req.headers["api-key"]', 'req.headers.authorization'] },
    pino.destination({ dest: config.json ? 2 : 1, sync: false }),
  )
  // A bad configuration stops start-up before anything is opened, naming the field to fix.
  const evm = config.config === undefined ? undefined : { config: await loadEvmConfig(config.config) }
  const storage = { dataDir: config['data-dir'], databaseUrl: config['database-url'] }
  // The embedded server's initdb runs in a process of its own meanwhile this one loads the service.
  const opening = openDatabase(storage, (message) => logger.warn(message))
  const loading = import('../app.ts')
  const [opened, loaded] = await Promise.allSettled([opening, loading])
  if (loaded.status === 'rejected') {
    if (opened.status === 'fulfilled') await opened.value.close()
    throw loaded.reason
  }
  if (opened.status === 'rejected') throw opened.reason
  const db = opened.value
  const { createApp } = loaded.value
  // The replica answers reads only: a small pool. One that cannot be reached at start-up stops it, as the
  // primary would: the operator named it.
  const replicaUrl = config['replica-database-url']
  const replica = replicaUrl
    ? await openPostgres({ url: replicaUrl, max: 8 }).catch(async (error: unknown) => {
        await db.close()
        throw new Error(`the replica at --replica-database-url does not answer: ${error instanceof Error ? error.message : String(error)}`)
      })
    : undefined
  const sandbox: SandboxAccounts | undefined = config.sandbox
    ? await ensureSandboxAccounts(db, systemClock, { keep: config['sandbox-api-key'], version: config['sandbox-api-version'] })
    : undefined

  let checkoutUrl = ''
  let baseUrl = ''
  // Served only with --metrics-port; with it, the process's own metrics (memory, CPU, event loop) too.
  const metrics = config['metrics-port'] === undefined ? undefined : tillMetrics({ process: true })
  const app = await createApp({
    db,
    logger,
    ...(metrics ? { metrics } : {}),
    ...(replica ? { replica: { db: replica, maxLagMs: config['replica-max-lag-ms'] } } : {}),
    ...(evm ? { evm } : {}),
    config: {
      sandbox: config.sandbox,
      paymentTtlSeconds: config['payment-ttl'],
      pollInMs: config['poll-ms'],
      statusCacheEntries: config['status-cache-size'],
      sandboxSlowConfirmMs: config['sandbox-confirm-ms'],
      sandboxHoldConfirmations: config['sandbox-hold-confirmations'],
      trustProxy: config['trust-proxy'],
      webhookRetentionDays: config['webhook-retention-days'],
      apiRateLimits: {
        perKey: { limit: config['api-rate-limit'], windowMs: 60_000 },
        authFailuresPerAddress: { limit: config['api-auth-failure-limit'], windowMs: 60_000 },
      },
      checkoutUrl: () => checkoutUrl,
      publicUrl: () => baseUrl,
    },
  })
  let metricsListener: MetricsListener | undefined
  try {
    await app.listen({ port: config.port, host: config.host })
    const metricsPort = config['metrics-port']
    if (metrics && metricsPort !== undefined) {
      metricsListener = await listenForMetrics(metrics, { host: config['metrics-host'], port: metricsPort })
    }
  } catch (error) {
    // A rail that refuses to start (an RPC serving the wrong chain) must not leave the database running.
    await app.close().catch(() => {})
    await replica?.close()
    await db.close()
    throw error
  }
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  baseUrl = (config['public-url'] ?? `http://${host}:${port}`).replace(/\/+$/, '')
  checkoutUrl = (config['checkout-url'] ?? `${baseUrl}/checkout`).replace(/\/+$/, '')

  // Listening for signals before announcing readiness: a launcher may signal the moment it reads the line.
  const ended = new Promise<{ signal: NodeJS.Signals } | { serverGone: string }>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      // Health checks answer 503 from now on: a load balancer stops sending new requests here while the
      // ones it still sends are served for the drain time; then the server closes.
      beginDraining(app)
      const drainMs = config['drain-ms']
      logger.info({ signal, drainMs }, 'shutting down: draining, then finishing requests in flight')
      // A second signal, or a stuck request, must not keep the process forever.
      process.once(signal, () => process.exit(130))
      setTimeout(() => process.exit(1), drainMs + SHUTDOWN_GRACE_MS).unref()
      setTimeout(() => resolve({ signal }), drainMs).unref()
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    // The embedded server is restarted when it dies; this is when that failed. Without its database Till
    // could only fail requests: better to exit and let a supervisor restart it.
    void db.serverExited.then((reason) => resolve({ serverGone: reason }))
  })
  const dashboardInviteUrl = sandbox ? await sandboxOwnerInvitation(db, sandbox.partnerId, baseUrl) : undefined
  logger.info({ baseUrl, metricsUrl: metricsListener?.url, storage: describeStorage(storage), sandbox: config.sandbox }, 'till is ready')
  if (config.json) {
    // Typed against the schema every launcher parses it with, so the two cannot drift apart.
    const line: z.input<typeof TillReadyLine> = {
      baseUrl,
      checkoutUrl,
      ...(sandbox ? { apiKey: sandbox.apiKey, merchantId: sandbox.merchantId, version: sandbox.version, appId: sandbox.appId } : {}),
      ...(dashboardInviteUrl ? { dashboardInviteUrl } : {}),
      ...(metricsListener ? { metricsUrl: metricsListener.url } : {}),
    }
    process.stdout.write(`${JSON.stringify(line)}\n`)
  } else {
    process.stdout.write(readyBanner(baseUrl, checkoutUrl, describeStorage(storage), sandbox, dashboardInviteUrl))
  }

  const ending = await ended
  if ('serverGone' in ending) {
    logger.fatal(`the embedded PostgreSQL server stopped, and Till stops with it: ${ending.serverGone}`)
    // Removes the throwaway data directory the dead server left.
    await db.close().catch(() => {})
    logger.flush()
    process.exit(1)
  }
  await app.close()
  await metricsListener?.close()
  await replica?.close()
  await db.close()
  logger.info('stopped')
  logger.flush()
  return 0
}

/** The sandbox partner's dashboard owner: invited at each start until the account exists, then signs in. */
export const SANDBOX_OWNER_EMAIL = 'owner@sandbox.till.test'

async function sandboxOwnerInvitation(db: Database, partnerId: string, baseUrl: string): Promise<string | undefined> {
  const people = dashboardPeople({ db, clock: systemClock })
  if (await people.hasAccount(SANDBOX_OWNER_EMAIL)) return undefined
  const { token } = await people.invite({
    partnerId,
    email: SANDBOX_OWNER_EMAIL,
    role: 'owner',
    invitedBy: null,
    origin: { address: null },
  })
  return dashboardUrls({ checkoutUrl: () => baseUrl, publicUrl: () => baseUrl }).invitation(token)
}

function readyBanner(
  baseUrl: string,
  checkoutUrl: string,
  storage: string,
  sandbox: SandboxAccounts | undefined,
  dashboardInviteUrl: string | undefined,
): string {
  const lines = [
    `Till is listening on ${baseUrl}`,
    `  data           ${storage}`,
    `  checkout page  ${checkoutUrl}/<paymentId>`,
    `  OpenAPI        ${baseUrl}/openapi.json`,
    `  dashboard      ${dashboardInviteUrl ?? `${dashboardUrls({ checkoutUrl: () => baseUrl, publicUrl: () => baseUrl }).origin()}/dashboard/`}${dashboardInviteUrl ? '  (the sandbox owner’s invitation: open it once)' : ''}`,
  ]
  if (sandbox) {
    lines.push(
      'Sandbox mode:',
      `  Api-Key        ${sandbox.apiKey}`,
      `  Merchant-Id    ${sandbox.merchantId}`,
      `  Pay-Version    ${sandbox.version}`,
      `  App-Id         ${sandbox.appId}   (the test wallets' app: list with App-Id + Client-Id)`,
    )
  }
  return `${lines.join('\n')}\n`
}
