// Fixtures of the e2e suite. Each Playwright worker starts, once:
//   till      the real service (`till serve --sandbox --json`) on a free port, with a small typed client of
//             the merchant API and the sandbox endpoints (simulate, confirm, reach-deadline);
//   chainTill on first use, another service whose sandbox payments are paid on a local chain (anvil with a
//             USDC test token, `--config`), the sandbox merchant receiving on it;
//   merchant  an HTTPS server standing in for the merchant's return pages (successUrl / errorUrl), with a
//             certificate made at run time for 127.0.0.1 and localhost.
// Specs import `test` and `expect` from here instead of from @playwright/test.
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createServer, type Server } from 'node:https'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { test as base, expect } from '@playwright/test'
import type { CreatePaymentResponse, MerchantPaymentStatusResponse, Payment, SimulateOutcome } from '@till/contract'
import { startTillLocalChain, type TillLocalChain } from '@till/devchain'
import { TILL_BIN } from '@till/service/spawn'
import { startSandboxTill } from '@till/testing'
import { localhostCertificate } from '@till/demo/certificate'

export { expect }

/**
 * Extra `till serve` flags for every worker's service, after `--sandbox --port 0 --json --log-level warn`.
 * The slow test wallet's confirmation is held until a test calls `till.confirm`: no test races a timer.
 */
export const TILL_SERVE_ARGS: readonly string[] = ['--sandbox-hold-confirmations']

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))
const READY_TIMEOUT_MS = 60_000

export interface CreatePaymentInput {
  amount?: { unit: string; value: string }
  referenceId?: string
  checkout?: { successUrl?: string; errorUrl?: string }
}

export interface Till {
  /** Where the service listens, without a trailing slash, e.g. http://127.0.0.1:41234. */
  baseUrl: string
  /** Base address of the hosted checkout page; every gatewayUrl starts with it. */
  checkoutUrl: string
  /** The sandbox merchant's credentials, sent by the helpers below. */
  apiKey: string
  merchantId: string
  /** The sandbox partner's pinned Pay-Version. */
  version: string
  /** The sandbox owner's single-use dashboard invitation, while that owner has no account. */
  dashboardInviteUrl: string | undefined
  /**
   * POST /v1/merchant/payment. Defaults: 12.50 EUR and a new referenceId on every call; no checkout
   * (redirect disabled) unless given. Throws with the response body unless the answer is 2xx.
   */
  createPayment(input?: CreatePaymentInput): Promise<CreatePaymentResponse>
  /** GET /v1/merchant/payment/{id}/status: what a merchant backend checks before fulfilling an order. */
  status(paymentId: string): Promise<MerchantPaymentStatusResponse>
  /** POST /v1/sandbox/payments/{id}/simulate: moves the payment along legal transitions to `outcome`. */
  simulate(paymentId: string, outcome: SimulateOutcome): Promise<Payment>
  /** POST /v1/sandbox/payments/{id}/confirm: the network confirms the slow test wallet's transaction now. */
  confirm(paymentId: string): Promise<Payment>
  /**
   * POST /v1/sandbox/payments/{id}/reach-deadline: the pending payment's deadline becomes now, as if the
   * buyer's time had run out; the service then expires it by its deadline, as it would any payment.
   */
  reachDeadline(paymentId: string): Promise<Payment>
}

export interface Merchant {
  /** https://127.0.0.1:<port> */
  origin: string
  /** `origin` + pathAndQuery, e.g. url('/return?order=1') for a successUrl. */
  url(pathAndQuery: string): string
  /**
   * Path and query of every request the server received during the current test, in order (emptied
   * before each test, so `toEqual([])` means "the merchant was never visited"). Fragments never reach a
   * server.
   */
  requests: string[]
}

/** A worker fixture running its own `till serve` with `extraArgs`; the service starts on first use. */
function tillService(
  extraArgs: readonly string[] = [],
): [(args: object, use: (till: Till) => Promise<void>) => Promise<void>, { scope: 'worker'; timeout: number }] {
  return [
    async ({}, use) => {
      const service = await startTill(extraArgs)
      try {
        await use(service.till)
      } finally {
        await service.stop()
      }
    },
    // Starting the service (its PostgreSQL server, migrations) takes a few seconds, on top of the test's own.
    { scope: 'worker', timeout: READY_TIMEOUT_MS + 30_000 },
  ]
}

/** A service whose sandbox payments are paid on a local chain (anvil), and that chain. */
export interface ChainTill extends Till {
  chain: TillLocalChain
}

// biome-ignore lint/suspicious/noConfusingVoidType: Playwright's type for a fixture that provides nothing
export const test = base.extend<{ _merchantRequestsPerTest: void }, { till: Till; chainTill: ChainTill; merchant: Merchant }>({
  till: tillService(),

  chainTill: [
    async ({}, use) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'till-e2e-chain-'))
      // One confirmation, and anvil mines each transaction at once: the test decides when blocks come. No
      // Local dev wallet: the buyer pays with the browser's own wallet (the demo shop's spec uses the dev one).
      const chain = await startTillLocalChain({ dir, confirmations: 1, devWallet: false })
      try {
        const service = await startTill(['--config', chain.configFile])
        try {
          await service.receiveOn([chain.merchantAccount])
          await use({ ...service.till, chain })
        } finally {
          await service.stop()
        }
      } finally {
        await chain.stop()
        await rm(dir, { recursive: true, force: true })
      }
    },
    { scope: 'worker', timeout: READY_TIMEOUT_MS + 60_000 },
  ],

  merchant: [
    async ({}, use) => {
      const server = await startMerchant()
      try {
        await use(server.merchant)
      } finally {
        await server.close()
      }
    },
    { scope: 'worker' },
  ],

  _merchantRequestsPerTest: [
    async ({ merchant }, use) => {
      merchant.requests.length = 0
      await use()
    },
    { auto: true },
  ],
})

// ---------------------------------------------------------------------------------------------------
// till

export async function startTill(
  extraArgs: readonly string[] = [],
  options: { env?: Record<string, string> } = {},
): Promise<{ till: Till; receiveOn: (accounts: string[]) => Promise<void>; stop: () => Promise<void> }> {
  // The project's own suite uses the kit merchants use (@till/testing), on this checkout's `till`.
  const service = await startSandboxTill({
    command: [process.execPath, TILL_BIN],
    args: ['--log-level', 'warn', ...TILL_SERVE_ARGS.filter((flag) => flag !== '--sandbox-hold-confirmations'), ...extraArgs],
    cwd: REPO_ROOT,
    readyTimeoutMs: READY_TIMEOUT_MS,
    ...(options.env ? { env: options.env } : {}),
    // Warnings and errors of the running service show up in the output of the test that caused them.
    onStderr: (chunk) => process.stderr.write(chunk),
  })
  const { client } = service
  const till: Till = {
    baseUrl: service.baseUrl,
    checkoutUrl: service.checkoutUrl,
    apiKey: service.apiKey,
    merchantId: service.merchantId,
    version: service.version,
    dashboardInviteUrl: service.dashboardInviteUrl,
    createPayment: (input = {}) =>
      client.merchantPayments.create({
        amount: input.amount ?? { unit: 'iso4217/EUR', value: '1250' },
        referenceId: input.referenceId ?? `e2e-${randomUUID()}`,
        ...(input.checkout ? { checkout: input.checkout } : {}),
      }),
    status: (paymentId) => client.merchantPayments.status(paymentId),
    simulate: (paymentId, outcome) => client.sandbox.simulate(paymentId, outcome),
    confirm: (paymentId) => client.sandbox.confirm(paymentId),
    reachDeadline: (paymentId) => client.sandbox.reachDeadline(paymentId),
  }
  const receiveOn = async (accounts: string[]) => {
    await client.merchants.update(service.merchantId, { settlementAddresses: accounts })
  }
  return { till, receiveOn, stop: service.stop }
}

// ---------------------------------------------------------------------------------------------------
// merchant

async function startMerchant(): Promise<{ merchant: Merchant; close: () => Promise<void> }> {
  const { key, cert } = await localhostCertificate()
  const requests: string[] = []
  const server: Server = createServer({ key, cert }, (request, response) => {
    requests.push(request.url ?? '')
    answer(request, response)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  const merchant: Merchant = {
    origin,
    url: (pathAndQuery) => `${origin}${pathAndQuery.startsWith('/') ? '' : '/'}${pathAndQuery}`,
    requests,
  }
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return { merchant, close }
}

function answer(request: IncomingMessage, response: ServerResponse): void {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' })
    response.end('Method not allowed\n')
    return
  }
  const body = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<title>Merchant</title>',
    // No favicon request: `requests` holds only the pages the browser was sent to.
    '<link rel="icon" href="data:,">',
    '</head>',
    '<body>',
    '<main>',
    '<h1>Merchant return page</h1>',
    `<p data-testid="return-url">${escapeHtml(request.url ?? '')}</p>`,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n')
  response.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  })
  response.end(request.method === 'HEAD' ? undefined : body)
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}
