// The audit log records key and webhook changes wherever they are made (issue 25, point 4): through the API,
// by the key that made them, and with `till` on the database, by the command line.
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { adminCommandRunner } from '../cli/admin-command.test-helper.ts'
import { type Account, createAccount } from '../../test/fixtures.ts'
import { handDispatcher, registerEndpoint, sandboxPayment, useWebhookApp } from '../../test/webhook-fixtures.ts'
import { startWebhookReceiver } from '../../test/webhook-receiver.ts'
import { auditLog } from './index.ts'

const receiver = await startWebhookReceiver()
afterAll(() => receiver.close())
const { clock, outbound, ctx } = useWebhookApp(receiver)
const till = adminCommandRunner(ctx)

let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

/** The partner's log, oldest first, as action, target and actor. */
async function logged(partnerId: string) {
  const entries = await auditLog(ctx.tdb.db).page(partnerId, { limit: 100 })
  return entries.reverse().map((entry) => [entry.action, entry.target, entry.actor])
}

describe('the audit log', () => {
  it('records every change of a webhook endpoint made through the API, by its key and from its address', async () => {
    const { endpoint } = await registerEndpoint(ctx.app, account, { url: receiver.url() })
    const call = (method: 'POST' | 'DELETE', path: string) =>
      ctx.app.inject({ method, url: `/v1/webhook-endpoints/${endpoint.id}${path}`, headers: account.headers })
    receiver.answer(500)
    await sandboxPayment(ctx.app, account, ['failed'])
    await (await handDispatcher(ctx.tdb.db, clock, { outbound })).runOnce()
    const [delivery] = (await ctx.app.inject({ url: `/v1/webhook-endpoints/${endpoint.id}/deliveries`, headers: account.headers })).json<{
      data: { id: string }[]
    }>().data
    expect((await call('POST', '/rotate-secret')).statusCode).toBe(200)
    expect((await call('POST', '/enable')).statusCode).toBe(200)
    expect((await call('POST', `/deliveries/${delivery?.id}/redeliver`)).statusCode).toBe(202)
    expect((await call('DELETE', '')).statusCode).toBe(204)
    // A refused change is no change.
    expect((await call('DELETE', '')).statusCode).toBe(404)

    const key = `API key ${account.apiKey.split('_')[3]}`
    expect(await logged(account.partnerId)).toEqual([
      ['webhook_endpoint_created', endpoint.id, key],
      ['webhook_secret_rotated', endpoint.id, key],
      ['webhook_endpoint_enabled', endpoint.id, key],
      ['webhook_redelivered', delivery?.id, key],
      ['webhook_endpoint_deleted', endpoint.id, key],
    ])
    const [entry] = await auditLog(ctx.tdb.db).page(account.partnerId, { limit: 1 })
    expect(entry).toMatchObject({ address: '127.0.0.1', details: { merchantId: account.merchantId } })
  })

  it('records keys made and revoked with till, by the command line', async () => {
    const created = await till('api-key create', '--partner', account.partnerId, '--label', 'shop')
    const keyId = /till_sk_test_([0-9a-z]+)_/.exec(created)?.[1]
    await till('api-key revoke', '--partner', account.partnerId, '--label', 'shop')
    // Nothing left to revoke: nothing is recorded.
    await till('api-key revoke', '--partner', account.partnerId, '--label', 'shop')
    expect(await logged(account.partnerId)).toEqual([
      ['api_key_created', keyId, 'command line'],
      ['api_keys_revoked', 'label shop', 'command line'],
    ])
  })
})
