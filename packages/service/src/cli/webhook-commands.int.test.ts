import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { type Account, createAccount } from '../../test/fixtures.ts'
import { handDispatcher, registerEndpoint, sandboxPayment, useWebhookApp } from '../../test/webhook-fixtures.ts'
import { startWebhookReceiver } from '../../test/webhook-receiver.ts'
import { adminCommandRunner } from './admin-command.test-helper.ts'

const receiver = await startWebhookReceiver()
afterAll(() => receiver.close())
const { clock, outbound, ctx } = useWebhookApp(receiver)
const till = adminCommandRunner(ctx)

let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

describe('till webhooks', () => {
  it('lists endpoints and deliveries with their attempts, redelivers one, and enables an endpoint', async () => {
    const { endpoint } = await registerEndpoint(ctx.app, account, { url: receiver.url() })
    expect(await till('webhooks list', '--merchant', account.merchantId)).toContain(`${endpoint.id}  enabled  ${receiver.url()}`)

    receiver.answer(500)
    await sandboxPayment(ctx.app, account, ['failed'])
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
