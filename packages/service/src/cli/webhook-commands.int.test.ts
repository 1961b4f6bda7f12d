import { WebhookEndpointWithSecret } from '@till/contract'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { type Account, createAccount, createBody, testClock, useTestApp } from '../../test/fixtures.ts'
import { handDispatcher } from '../../test/webhook-fixtures.ts'
import { startWebhookReceiver } from '../../test/webhook-receiver.ts'
import { ADMIN_COMMANDS } from './admin.ts'

const clock = testClock()
const receiver = await startWebhookReceiver()
afterAll(() => receiver.close())
const outbound = { lookup: receiver.lookup, ca: [receiver.ca] }
const ctx = useTestApp({ clock, config: { sandbox: true }, outbound })

let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

/** Runs `till <command> … --database-url <the test database>` in-process, as the CLI would, and returns its output. */
async function till(command: string, ...args: string[]): Promise<string> {
  const spec = ADMIN_COMMANDS[command]
  if (!spec) throw new Error(`no command ${command}`)
  const invocation = spec.prepare(command, [...args, '--database-url', ctx.tdb.url], {})
  if (invocation === 'help') throw new Error('help')
  return invocation.run(ctx.tdb.db)
}

describe('till webhooks', () => {
  it('lists endpoints and deliveries with their attempts, redelivers one, and enables an endpoint', async () => {
    const registered = await ctx.app.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      headers: account.headers,
      payload: { url: receiver.url() },
    })
    const { endpoint } = WebhookEndpointWithSecret.parse(registered.json())
    expect(await till('webhooks list', '--merchant', account.merchantId)).toContain(`${endpoint.id}  enabled  ${receiver.url()}`)

    receiver.answer(500)
    const created = await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: account.headers, payload: createBody() })
    const { paymentId } = created.json<{ paymentId: string }>()
    await ctx.app.inject({
      method: 'POST',
      url: `/v1/sandbox/payments/${paymentId}/simulate`,
      headers: account.headers,
      payload: { outcome: 'failed' },
    })
    const dispatcher = await handDispatcher(ctx.tdb.db, clock, { outbound })
    await dispatcher.runOnce()

    const shown = await till('webhooks deliveries', '--merchant', account.merchantId, '--endpoint', endpoint.id)
    const deliveryId = shown.split(/\s+/)[0] ?? ''
    expect(shown).toMatch(/payment\.failed +evt_[0-9a-f]{32} +pending, next attempt/)
    expect(shown).toMatch(/\n {4}\S+ {2}500 {2}\d+ ms {2}HTTP 500/)

    expect(await till('webhooks redeliver', '--merchant', account.merchantId, '--endpoint', endpoint.id, '--delivery', deliveryId)).toBe(
      `Delivery ${deliveryId} queued.`,
    )
    // The CLI stamps the redelivery with the system clock; the dispatcher runs on the test's.
    clock.set(new Date(Date.now() + 60_000))
    expect(await dispatcher.runOnce()).toBe(1)
    expect(await till('webhooks deliveries', '--merchant', account.merchantId, '--endpoint', endpoint.id, '--json')).toContain(
      '"status":"delivered"',
    )

    await ctx.tdb.db.query(`UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = 'every attempt failed'`)
    expect(await till('webhooks list', '--merchant', account.merchantId)).toContain('disabled (every attempt failed)')
    expect(await till('webhooks enable', '--merchant', account.merchantId, '--endpoint', endpoint.id)).toContain(`${endpoint.id}  enabled`)
    await expect(till('webhooks enable', '--merchant', account.merchantId, '--endpoint', 'we_nope')).rejects.toThrow(
      'No webhook endpoint we_nope',
    )
  })
})
