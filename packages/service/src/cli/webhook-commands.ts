import type { WebhookDelivery, WebhookEndpoint } from '@till/contract'
import { z } from 'zod'
import { flag } from '../config/flag.ts'
import type { Database } from '../db/port.ts'
import { systemClock } from '../core/clock.ts'
import { logoUrls } from '../logos/index.ts'
import { unappliedSnapshotView } from '../evm/index.ts'
import { serviceSecret } from '../db/secrets.ts'
import { openRefundLinks, refundSnapshotView } from '../refunds/index.ts'
import { secretSealer, webhookService } from '../webhooks/index.ts'
import { accountStore } from '../accounts/index.ts'
import type { AuditAction } from '../audit/index.ts'
import { adminCommand, type Command, fromCommandLine, id } from './admin-command.ts'

/** The same service as the API's webhook endpoints; loopback URLs are refused here, as outside sandbox. */
async function webhooksOf(db: Database) {
  const sealer = secretSealer(await serviceSecret(db, 'webhook_secret_key', systemClock.now()))
  return webhookService({
    db,
    clock: systemClock,
    sealer,
    logoUrl: logoUrls(() => '/checkout'),
    // Without the EVM configuration at hand, a transfer's token is shown by its id alone.
    transferView: unappliedSnapshotView(undefined),
    // A refund's links are shown under the checkout's path: the CLI does not know the public address.
    refundView: refundSnapshotView(await openRefundLinks(db, systemClock.now(), () => '/checkout')),
    policy: { allowLoopback: false },
  })
}

const merchantFlag = flag({ type: 'string', value: 'ID', schema: id, help: 'The merchant whose webhook endpoints to look at' })
const endpointFlag = flag({ type: 'string', value: 'ID', schema: id, help: 'The webhook endpoint (we_…)' })

const endpointLine = (e: WebhookEndpoint) =>
  `${e.id}  ${e.status}${e.disabledReason ? ` (${e.disabledReason})` : ''}  ${e.url}  ${e.events.join(',')}`

function deliveryLines(d: WebhookDelivery): string[] {
  const head = `${d.id}  ${d.event.type}  ${d.event.id}  ${d.status}${d.nextAttemptAt ? `, next attempt ${d.nextAttemptAt}` : ''}`
  return [
    head,
    ...d.attempts.map((a) => `    ${a.attemptedAt}  ${a.statusCode ?? '---'}  ${a.latencyMs} ms${a.error ? `  ${a.error}` : ''}`),
  ]
}

/** The change in the merchant's partner's audit log, by the command line. */
async function audited(db: Database, merchantId: string, action: AuditAction, target: string): Promise<void> {
  const merchant = await accountStore(db).findMerchant(merchantId)
  if (merchant) await fromCommandLine(db, { partnerId: merchant.partnerId, action, target, at: systemClock.now(), details: { merchantId } })
}

/** `till webhooks …`: what the API's webhook endpoints show and do, for an operator on the database. */
export const WEBHOOK_COMMANDS: Record<string, Command> = {
  'webhooks list': adminCommand({
    usage: 'till webhooks list --merchant ID [options]',
    about: "Lists a merchant's webhook endpoints: status (and why one was disabled), URL and event types.",
    flags: { merchant: merchantFlag },
    run: async (db, flags) => ({ endpoints: await (await webhooksOf(db)).list(flags.merchant) }),
    say: (r) => (r.endpoints.length === 0 ? 'No webhook endpoints.' : r.endpoints.map(endpointLine).join('\n')),
  }),
  'webhooks deliveries': adminCommand({
    usage: 'till webhooks deliveries --merchant ID --endpoint ID [options]',
    about: "An endpoint's recent deliveries, newest first, each with every attempt: time, HTTP status, latency, error.",
    flags: { merchant: merchantFlag, endpoint: endpointFlag },
    run: async (db, flags) => ({ deliveries: await (await webhooksOf(db)).deliveries(flags.merchant, flags.endpoint) }),
    say: (r) => (r.deliveries.length === 0 ? 'No deliveries yet.' : r.deliveries.flatMap(deliveryLines).join('\n')),
  }),
  'webhooks redeliver': adminCommand({
    usage: 'till webhooks redeliver --merchant ID --endpoint ID --delivery ID [options]',
    about: 'Sends a delivery again: a running till serve picks it up at once, with a fresh retry schedule.',
    flags: {
      merchant: merchantFlag,
      endpoint: endpointFlag,
      delivery: flag({
        type: 'string',
        value: 'ID',
        schema: z.string().regex(/^[0-9]{1,18}$/, { message: 'must be a delivery id' }),
        help: 'The delivery, from `till webhooks deliveries`',
      }),
    },
    async run(db, flags) {
      await (await webhooksOf(db)).redeliver(flags.merchant, flags.endpoint, flags.delivery)
      await audited(db, flags.merchant, 'webhook_redelivered', flags.delivery)
      return { queued: flags.delivery }
    },
    say: (r) => `Delivery ${r.queued} queued.`,
  }),
  'webhooks enable': adminCommand({
    usage: 'till webhooks enable --merchant ID --endpoint ID [options]',
    about: 'Enables an endpoint Till disabled after every attempt of a delivery failed.',
    flags: { merchant: merchantFlag, endpoint: endpointFlag },
    async run(db, flags) {
      const endpoint = await (await webhooksOf(db)).enable(flags.merchant, flags.endpoint)
      await audited(db, flags.merchant, 'webhook_endpoint_enabled', flags.endpoint)
      return { endpoint }
    },
    say: (r) => endpointLine(r.endpoint),
  }),
}
