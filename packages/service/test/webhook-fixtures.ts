import type { Database } from '../src/db/port.ts'
import type { Clock } from '../src/core/clock.ts'
import { logoUrls } from '../src/logos/urls.ts'
import { serviceSecret } from '../src/db/secrets.ts'
import { webhookDispatcher } from '../src/webhooks/dispatcher.ts'
import { unappliedSnapshotView } from '../src/evm/unapplied-views.ts'
import { secretSealer } from '../src/webhooks/secrets.ts'
import { type WebhookSender, webhookSender } from '../src/webhooks/sender.ts'
import { WebhookEndpointWithSecret } from '@till/contract'
import type { FastifyInstance } from 'fastify'
import { type Account, CHECKOUT_URL, createBody, silentLog, testClock, useTestApp } from './fixtures.ts'
import type { WebhookReceiver } from './webhook-receiver.ts'

/**
 * One service instance's webhook dispatcher on the test's database and clock, run by hand (`runOnce`): tests
 * decide when deliveries go out. It sends to loopback (sandbox) through `outbound`, or through `send`.
 */
export async function handDispatcher(
  db: Database,
  clock: Clock,
  options: {
    outbound?: { lookup: Parameters<typeof webhookSender>[0]['lookup']; ca: string[] }
    send?: WebhookSender
    evm?: Parameters<typeof unappliedSnapshotView>[0]
  },
) {
  return webhookDispatcher({
    db,
    clock,
    sealer: secretSealer(await serviceSecret(db, 'webhook_secret_key', clock.now())),
    logoUrl: logoUrls(() => CHECKOUT_URL),
    transferView: unappliedSnapshotView(options.evm),
    send: options.send ?? webhookSender({ policy: { allowLoopback: true }, ...options.outbound }),
    log: silentLog,
    intervalMs: 60_000,
    random: () => 0.5,
  })
}

/**
 * The usual app of a webhook test: sandbox mode on the test clock, its outbound requests reaching the
 * receiver (HTTPS on 127.0.0.1, through an injected lookup). Call it at a test file's top level, or a
 * describe's.
 */
export function useWebhookApp(receiver: WebhookReceiver) {
  const clock = testClock()
  const outbound = { lookup: receiver.lookup, ca: [receiver.ca] }
  const ctx = useTestApp({ clock, config: { sandbox: true }, outbound })
  return { clock, outbound, ctx }
}

/** A sandbox payment of the account, moved through `outcomes` with the simulate endpoint; its id. */
export async function sandboxPayment(app: FastifyInstance, account: Account, outcomes: readonly string[]): Promise<string> {
  const created = await app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: account.headers, payload: createBody() })
  const { paymentId } = created.json<{ paymentId: string }>()
  for (const outcome of outcomes) {
    const response = await app.inject({
      method: 'POST',
      url: `/v1/sandbox/payments/${paymentId}/simulate`,
      headers: account.headers,
      payload: { outcome },
    })
    if (response.statusCode !== 200) throw new Error(`simulate ${outcome}: ${response.statusCode} ${response.body}`)
  }
  return paymentId
}

/** Registers a webhook endpoint for the account's merchant through the API; the endpoint and its secret. */
export async function registerEndpoint(
  app: FastifyInstance,
  account: Account,
  body: Record<string, unknown>,
): Promise<WebhookEndpointWithSecret> {
  const response = await app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: account.headers, payload: body })
  if (response.statusCode !== 201) throw new Error(`registering ${JSON.stringify(body)}: ${response.statusCode} ${response.body}`)
  return WebhookEndpointWithSecret.parse(response.json())
}
