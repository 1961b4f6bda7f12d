import { describe, expect, it } from 'vitest'
import { LISTING_TERMINALITY, MERCHANT_FINALITY } from './status-tables.test-data.ts'
import { ListingPaymentStatus, MerchantPaymentStatus, merchantViewStatus } from './status.ts'
import { FINAL_STATUSES, isFinalStatus, isTerminalListingStatus, toListingStatus } from './statuses.ts'

describe('merchant view', () => {
  it('has the five statuses of spec section 3, and cancelled', () => {
    expect(MerchantPaymentStatus.options).toEqual(['pending', 'processing', 'succeeded', 'failed', 'expired', 'cancelled'])
  })

  it('shows a cancelled payment as failed on 2026-02-18, and as cancelled on the preview', () => {
    const stable = MerchantPaymentStatus.options.map((status) => merchantViewStatus(status, '2026-02-18'))
    expect(stable).toEqual(['pending', 'processing', 'succeeded', 'failed', 'expired', 'failed'])
    expect(MerchantPaymentStatus.options.map((status) => merchantViewStatus(status, '2026-02-19.preview'))).toEqual(
      MerchantPaymentStatus.options,
    )
  })

  it.each(MERCHANT_FINALITY)('%s is final: %s', (status, final) => {
    expect(isFinalStatus(status)).toBe(final)
  })

  it('lists exactly the final statuses', () => {
    expect([...FINAL_STATUSES].sort()).toEqual(['cancelled', 'expired', 'failed', 'succeeded'])
  })

  it('refuses listing-only values', () => {
    expect(MerchantPaymentStatus.safeParse('requires_action').success).toBe(false)
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
    ['cancelled', 'cancelled'],
  ] as const)('maps %s to %s', (merchant, listing) => {
    expect(toListingStatus(merchant)).toBe(listing)
  })

  it('keeps finality across the mapping', () => {
    for (const status of MerchantPaymentStatus.options) {
      expect(isTerminalListingStatus(toListingStatus(status))).toBe(isFinalStatus(status))
    }
  })
})
