import { describe, expect, it } from 'vitest'
import { LISTING_TERMINALITY, MERCHANT_FINALITY } from './status-tables.test-data.ts'
import { ListingPaymentStatus, MerchantPaymentStatus } from './status.ts'
import { FINAL_STATUSES, isFinalStatus, isTerminalListingStatus, toListingStatus } from './statuses.ts'

describe('merchant view', () => {
  it('has the five statuses of spec section 3', () => {
    expect(MerchantPaymentStatus.options).toEqual(['pending', 'processing', 'succeeded', 'failed', 'expired'])
  })

  it.each(MERCHANT_FINALITY)('%s is final: %s', (status, final) => {
    expect(isFinalStatus(status)).toBe(final)
  })

  it('lists exactly the final statuses', () => {
    expect([...FINAL_STATUSES].sort()).toEqual(['expired', 'failed', 'succeeded'])
  })

  it('refuses listing-only values', () => {
    expect(MerchantPaymentStatus.safeParse('requires_action').success).toBe(false)
    expect(MerchantPaymentStatus.safeParse('cancelled').success).toBe(false)
    expect(MerchantPaymentStatus.safeParse('SUCCEEDED').success).toBe(false)
  })
})

describe('listing view', () => {
  it('has the six statuses of spec section 2.1', () => {
    expect(ListingPaymentStatus.options).toEqual(['requires_action', 'processing', 'succeeded', 'failed', 'expired', 'cancelled'])
  })

  it.each(LISTING_TERMINALITY)('%s is terminal: %s', (status, terminal) => {
    expect(isTerminalListingStatus(status)).toBe(terminal)
  })

  it.each([
    ['pending', 'requires_action'],
    ['processing', 'processing'],
    ['succeeded', 'succeeded'],
    ['failed', 'failed'],
    ['expired', 'expired'],
  ] as const)('maps %s to %s', (merchant, listing) => {
    expect(toListingStatus(merchant)).toBe(listing)
  })

  it('keeps finality across the mapping', () => {
    for (const status of MerchantPaymentStatus.options) {
      expect(isTerminalListingStatus(toListingStatus(status))).toBe(isFinalStatus(status))
    }
  })
})
