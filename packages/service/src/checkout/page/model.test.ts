import type { CheckoutStatus, CheckoutWallet, MerchantPaymentStatus } from '@till/contract'
import { html } from 'lit-html'
import { describe, expect, it } from 'vitest'
import { clockOffset, newer, remainingMs, viewKey, type Step } from './model.ts'

const FINAL: MerchantPaymentStatus[] = ['succeeded', 'failed', 'expired']

const observed = (status: MerchantPaymentStatus, serverTime = '2025-03-01T12:00:00.000Z'): CheckoutStatus => ({
  status,
  isFinal: FINAL.includes(status),
  expiresAt: '2025-03-01T12:15:00.000Z',
  serverTime,
  redirect: null,
  paid: null,
})

const wallet: CheckoutWallet = { id: 'sandbox_pays', name: 'Sandbox Pays' }
const connect: Step = { name: 'connect' }
const choose: Step = { name: 'choose', wallet, address: '0x52908400098527886e0f7030069857d2e4169ee7', options: { state: 'loading' } }

describe('newer', () => {
  it('moves forward through the payment states', () => {
    expect(newer(observed('pending'), observed('processing')).status).toBe('processing')
    expect(newer(observed('processing'), observed('succeeded')).status).toBe('succeeded')
    expect(newer(observed('pending'), observed('expired')).status).toBe('expired')
  })

  it('keeps processing when a late answer still says pending', () => {
    const processing = observed('processing')
    expect(newer(processing, observed('pending'))).toBe(processing)
  })

  it('keeps a terminal state whatever earlier state answers late', () => {
    for (const status of FINAL) {
      const terminal = observed(status)
      expect(newer(terminal, observed('pending')), status).toBe(terminal)
      expect(newer(terminal, observed('processing')), status).toBe(terminal)
    }
  })

  it('keeps the end a payment was first seen with: an ended payment never changes its end', () => {
    const succeeded = observed('succeeded')
    expect(newer(succeeded, observed('failed'))).toBe(succeeded)
    expect(newer(succeeded, observed('expired'))).toBe(succeeded)
  })

  it('takes the later observation of the same state, so its details stay fresh', () => {
    const later = observed('pending', '2025-03-01T12:05:00.000Z')
    expect(newer(observed('pending'), later)).toBe(later)
  })
})

describe('viewKey', () => {
  it("shows the buyer's step while the payment is pending", () => {
    expect(viewKey({ status: observed('pending'), step: connect })).toBe('connect')
    expect(viewKey({ status: observed('pending'), step: choose })).toBe('choose')
  })

  it('gives each screen of the wallet code its own key, so focus and the live region follow them', () => {
    const screen = (name: 'switching' | 'signing'): Step => ({ name: 'wallet', screen: name, view: html``, announce: '' })
    expect(viewKey({ status: observed('pending'), step: screen('switching') })).toBe('wallet-switching')
    expect(viewKey({ status: observed('pending'), step: screen('signing') })).toBe('wallet-signing')
    expect(viewKey({ status: observed('pending'), step: { name: 'connecting', wallet } })).toBe('connecting')
    expect(viewKey({ status: observed('processing'), step: screen('switching') })).toBe('processing')
  })

  it('shows the payment status over the step once it is no longer pending', () => {
    for (const status of ['processing', 'succeeded', 'failed', 'expired'] as const) {
      expect(viewKey({ status: observed(status), step: choose }), status).toBe(status)
      expect(viewKey({ status: observed(status), step: connect }), status).toBe(status)
    }
  })
})

describe('remainingMs', () => {
  const pageNow = Date.parse('2025-03-01T12:00:00.000Z')

  it('counts down on the server clock when the page clock is behind', () => {
    // The server says 12:02 while the page thinks it is 12:00: 13 minutes are left, not 15.
    const status = observed('pending', '2025-03-01T12:02:00.000Z')
    const clockOffsetMs = clockOffset(status, pageNow)
    expect(clockOffsetMs).toBe(120_000)
    expect(remainingMs({ status, clockOffsetMs, now: pageNow })).toBe(13 * 60_000)
  })

  it('counts down on the server clock when the page clock is ahead', () => {
    const status = observed('pending', '2025-03-01T11:59:00.000Z')
    const clockOffsetMs = clockOffset(status, pageNow)
    expect(remainingMs({ status, clockOffsetMs, now: pageNow })).toBe(16 * 60_000)
    // Ten page-clock seconds later, ten seconds fewer are left.
    expect(remainingMs({ status, clockOffsetMs, now: pageNow + 10_000 })).toBe(16 * 60_000 - 10_000)
  })

  it('goes negative once the deadline has passed on the server clock', () => {
    const status = observed('pending', '2025-03-01T12:00:00.000Z')
    expect(remainingMs({ status, clockOffsetMs: 16 * 60_000, now: pageNow })).toBe(-60_000)
  })
})
