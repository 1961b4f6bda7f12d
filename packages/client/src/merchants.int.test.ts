// merchants.create and merchants.update against the real service.
import { type SandboxTill, startSandboxTill } from './till.test-helper.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TillClient } from './client.ts'
import { TillConflictError, TillInvalidRequestError, TillNotFoundError } from './errors.ts'

let sandbox: SandboxTill
let till: TillClient

beforeAll(async () => {
  sandbox = await startSandboxTill()
  till = new TillClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey })
})

afterAll(async () => {
  await till?.close()
  await sandbox?.stop()
})

describe('merchants', () => {
  it('creates a merchant that takes payments at once, and updates it', async () => {
    const { merchant, replayed } = await till.merchants.create({ merchantName: 'Till Tea', merchantEmail: 'tea@till.example' })
    expect(replayed).toBe(false)
    expect(merchant).toMatchObject({ name: 'Till Tea', status: 'active', iconUrl: null })
    const payment = await till.merchantPayments.create(
      { amount: { unit: 'iso4217/EUR', value: 500n }, referenceId: 'tea-1' },
      { merchantId: merchant.id },
    )
    expect(payment.gatewayUrl).toContain(payment.paymentId)
    const updated = await till.merchants.update(merchant.id, { merchantName: 'Till Tea House' })
    expect(updated.merchant).toMatchObject({ id: merchant.id, name: 'Till Tea House' })
  })

  it('lists a merchant’s unapplied transfers (none yet), and refuses another partner’s merchant as not found', async () => {
    const { merchant } = await till.merchants.create({ merchantName: 'Stray Tea', merchantEmail: 'stray@till.example' })
    expect(await till.merchants.unappliedTransfers(merchant.id)).toMatchObject({ data: [], nextCursor: null })
    expect(await till.merchants.unappliedTransfers(merchant.id, { limit: 1 })).toMatchObject({ data: [], nextCursor: null })
    await expect(till.merchants.unappliedTransfers(merchant.id, { cursor: 'nope' })).rejects.toBeInstanceOf(TillInvalidRequestError)
    await expect(till.merchants.unappliedTransfers('mer_00000000000000000000000000')).rejects.toBeInstanceOf(TillNotFoundError)
  })

  it('replays a create with the same key, and refuses the key with another body', async () => {
    const body = { merchantName: 'Replay', merchantEmail: 'r@till.example' }
    const first = await till.merchants.create(body, { idempotencyKey: 'replay-1' })
    const again = await till.merchants.create(body, { idempotencyKey: 'replay-1' })
    expect(again).toMatchObject({ merchant: first.merchant, replayed: true })
    await expect(till.merchants.create({ ...body, merchantName: 'Other' }, { idempotencyKey: 'replay-1' })).rejects.toThrow(
      TillConflictError,
    )
  })

  it('gives refusals as typed errors naming the field', async () => {
    const error = await till.merchants
      .create({ merchantName: 'Logo', merchantEmail: 'l@till.example', iconUrl: 'https://10.0.0.1/logo.png' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TillInvalidRequestError)
    expect((error as TillInvalidRequestError).issues).toEqual([{ field: 'iconUrl', message: '10.0.0.1 is not a public address (private)' }])
    await expect(till.merchants.update('mer_nobody', { merchantName: 'x' })).rejects.toThrow(TillNotFoundError)
  })
})

describe('webhookEndpoints', () => {
  it('registers, lists, rotates and deletes an endpoint of the merchant', async () => {
    const merchantTill = new TillClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, merchantId: sandbox.merchantId })
    try {
      const created = await merchantTill.webhookEndpoints.create({ url: 'https://localhost:9/hooks', events: ['payment.succeeded'] })
      expect(created.secret).toMatch(/^whsec_/)
      expect((await merchantTill.webhookEndpoints.list()).data.map((e) => e.id)).toContain(created.endpoint.id)
      const rotated = await merchantTill.webhookEndpoints.rotateSecret(created.endpoint.id)
      expect(rotated.secret).not.toBe(created.secret)
      expect((await merchantTill.webhookEndpoints.deliveries(created.endpoint.id)).data).toEqual([])
      await merchantTill.webhookEndpoints.delete(created.endpoint.id)
      expect((await merchantTill.webhookEndpoints.list()).data.map((e) => e.id)).not.toContain(created.endpoint.id)
      await expect(merchantTill.webhookEndpoints.enable(created.endpoint.id)).rejects.toThrow(TillNotFoundError)
    } finally {
      await merchantTill.close()
    }
  })
})
