import { describe, expect, it } from 'vitest'
import { PageQuery } from './listing-query.ts'
import { UNAPPLIED_REASONS, UnappliedReason, UnappliedTransferList } from './unapplied-transfers.ts'
import { CreateWebhookEndpointRequest, WEBHOOK_EVENT_TYPES, WebhookEvent } from './webhooks.ts'

const transfer = {
  id: `eip155:8453/0x${'ab'.repeat(32)}`,
  transaction: { networkId: 'eip155:8453', hash: `0x${'ab'.repeat(32)}`, logIndex: null },
  from: 'eip155:8453:0x52908400098527886E0F7030069857D2E4169EE7',
  to: 'eip155:8453:0x8ba1f109551bD432803012645Ac136ddd64DBA72',
  tokenAmount: { unit: 'caip19/eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', value: '1', display: null },
  reason: 'no_matching_payment',
  paymentId: null,
  recordedAt: '2026-11-26T12:00:00.000Z',
}

describe('unapplied transfers', () => {
  it('have one list of reasons', () => {
    expect(UNAPPLIED_REASONS).toEqual([
      'payment_expired',
      'payment_cancelled',
      'payment_already_paid',
      'amount_mismatch',
      'no_matching_payment',
    ])
    expect(UnappliedReason.safeParse('late').success).toBe(false)
  })

  it('are listed a page at a time', () => {
    expect(UnappliedTransferList.parse({ data: [transfer], nextCursor: null }).data).toHaveLength(1)
    expect(PageQuery.parse({})).toEqual({ limit: 50 })
    expect(PageQuery.parse({ limit: '200', cursor: 'x' })).toEqual({ limit: 200, cursor: 'x' })
    expect(PageQuery.safeParse({ limit: '201' }).success).toBe(false)
    expect(PageQuery.safeParse({ sortBy: 'date' }).success).toBe(false)
  })

  it('are announced by transfer.unapplied, a webhook event told apart by its type', () => {
    expect(WEBHOOK_EVENT_TYPES).toContain('transfer.unapplied')
    expect(CreateWebhookEndpointRequest.parse({ url: 'https://shop.example/hooks', events: ['transfer.unapplied'] }).events).toEqual([
      'transfer.unapplied',
    ])
    const event = { id: 'evt_1', type: 'transfer.unapplied', createdAt: '2026-11-26T12:00:00.000Z', data: { ...transfer, payment: null } }
    expect(WebhookEvent.parse(event)).toEqual(event)
    // A payment's body under the transfer's type, or the reverse, is refused.
    expect(WebhookEvent.safeParse({ ...event, type: 'payment.succeeded' }).success).toBe(false)
    expect(WebhookEvent.safeParse({ ...event, data: transfer }).success).toBe(false)
  })
})
