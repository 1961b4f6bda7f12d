import type { Database } from '../src/db/port.ts'
import type { Clock } from '../src/domain/clock.ts'
import { logoUrls } from '../src/logos/urls.ts'
import { serviceSecret } from '../src/store/secrets.ts'
import { webhookDispatcher } from '../src/webhooks/dispatcher.ts'
import { secretSealer } from '../src/webhooks/secrets.ts'
import { type WebhookSender, webhookSender } from '../src/webhooks/sender.ts'
import { CHECKOUT_URL, silentLog } from './fixtures.ts'

/**
 * One service instance's webhook dispatcher on the test's database and clock, run by hand (`runOnce`): tests
 * decide when deliveries go out. It sends to loopback (sandbox) through `outbound`, or through `send`.
 */
export async function handDispatcher(
  db: Database,
  clock: Clock,
  options: { outbound?: { lookup: Parameters<typeof webhookSender>[0]['lookup']; ca: string[] }; send?: WebhookSender },
) {
  return webhookDispatcher({
    db,
    clock,
    sealer: secretSealer(await serviceSecret(db, 'webhook_secret_key', clock.now())),
    logoUrl: logoUrls(() => CHECKOUT_URL),
    send: options.send ?? webhookSender({ policy: { allowLoopback: true }, ...options.outbound }),
    log: silentLog,
    intervalMs: 60_000,
    random: () => 0.5,
  })
}
