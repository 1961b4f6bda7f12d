import { describe, expect, it } from 'vitest'
import { SimulateOutcome, SimulatePaymentRequest } from './sandbox.ts'

describe('SimulatePaymentRequest', () => {
  it.each(SimulateOutcome.options)('accepts %s', (outcome) => {
    expect(SimulatePaymentRequest.parse({ outcome })).toEqual({ outcome })
  })

  it('offers every status a buyer can bring a payment to', () => {
    expect(SimulateOutcome.options).toEqual(['processing', 'succeeded', 'failed', 'expired'])
  })

  it.each([{}, { outcome: 'pending' }, { outcome: 'cancelled' }, { outcome: 'SUCCEEDED' }, { outcome: null }])('refuses %j', (body) => {
    expect(SimulatePaymentRequest.safeParse(body).success).toBe(false)
  })
})
