import { describe, expect, it } from 'vitest'
import {
  CHECKOUT_LONG_POLL_MAX_MS,
  CheckoutConfirmRequest,
  CheckoutStatus,
  CheckoutStatusQuery,
  REDIRECT_COUNTDOWN_MS,
} from './checkout.ts'

const status = (overrides: Record<string, unknown> = {}) => ({
  status: 'succeeded',
  isFinal: true,
  expiresAt: '2026-11-21T12:15:00.000Z',
  serverTime: '2026-11-21T12:01:00.000Z',
  redirect: { url: 'https://shop.example/paid?payment_id=pay_1', countdownMs: REDIRECT_COUNTDOWN_MS },
  paid: null,
  ...overrides,
})

describe('CheckoutStatus', () => {
  it('accepts a final payment with its redirect', () => {
    expect(CheckoutStatus.parse(status()).redirect?.countdownMs).toBe(3000)
  })

  it('refuses an isFinal that contradicts the status', () => {
    expect(CheckoutStatus.safeParse(status({ isFinal: false })).success).toBe(false)
    expect(CheckoutStatus.safeParse(status({ status: 'pending', isFinal: true, redirect: null })).success).toBe(false)
  })

  it('refuses a redirect before the payment has ended', () => {
    const result = CheckoutStatus.safeParse(status({ status: 'processing', isFinal: false }))
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path).toEqual(['redirect'])
  })
})

describe('CheckoutConfirmRequest', () => {
  const valid = { walletId: 'sandbox_pays', optionId: 'usdc-base', account: 'eip155:8453:0x52908400098527886e0f7030069857d2e4169ee7' }
  const hash = '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060'
  const browser = { ...valid, walletId: 'browser', transactionHash: hash, walletName: 'MetaMask' }

  it('accepts a test wallet, an option and a CAIP-10 account', () => {
    expect(CheckoutConfirmRequest.parse(valid)).toEqual(valid)
  })

  it("accepts a browser wallet's signed transaction hash", () => {
    expect(CheckoutConfirmRequest.parse(browser)).toEqual(browser)
  })

  it.each([
    { ...valid, walletId: 'visa' },
    { ...valid, account: '0x52908400098527886e0f7030069857d2e4169ee7' },
    { ...valid, optionId: '' },
    // The amount is the server's to quote, never the page's to send.
    { ...valid, amount: '1' },
    // A test wallet signs nothing: a hash from it would be a claim nobody checks.
    { ...valid, transactionHash: hash },
    { ...browser, transactionHash: undefined },
    { ...browser, transactionHash: hash.slice(0, 65) },
    { ...browser, transactionHash: `${hash}00` },
    { ...browser, walletName: '' },
    { ...browser, clientId: 'abc' },
  ])('refuses %j', (body) => {
    expect(CheckoutConfirmRequest.safeParse(body).success).toBe(false)
  })

  it('names the field of a malformed hash', () => {
    const result = CheckoutConfirmRequest.safeParse({ ...browser, transactionHash: '0x12' })
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['transactionHash'])
  })
})

describe('CheckoutStatusQuery', () => {
  it('reads waitMs from the query string, up to the long-poll maximum', () => {
    expect(CheckoutStatusQuery.parse({ after: 'pending', waitMs: '25000' })).toEqual({
      after: 'pending',
      waitMs: CHECKOUT_LONG_POLL_MAX_MS,
    })
    expect(CheckoutStatusQuery.safeParse({ waitMs: String(CHECKOUT_LONG_POLL_MAX_MS + 1) }).success).toBe(false)
    expect(CheckoutStatusQuery.safeParse({ after: 'requires_action' }).success).toBe(false)
  })
})
