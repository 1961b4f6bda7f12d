import type { Page } from '@playwright/test'
import type { SimulateOutcome } from '@till/contract'

/**
 * How the buyer's payment ends, one status per test wallet (expiring is the clock's, not a wallet's);
 * `processing` waits for `confirm` (the slow test wallet).
 */
export type SandboxOutcome = Exclude<SimulateOutcome, 'expired'>

export interface PayInSandboxOptions {
  /**
   * With `processing`: called once the checkout page shows the payment processing, e.g.
   * `() => till.client.sandbox.confirm(paymentId)`; the page then hears of the success and returns.
   */
  confirm?: (paymentId: string) => Promise<unknown>
  /** How long each step may take; Playwright's action and navigation timeouts otherwise. */
  timeoutMs?: number
}

export interface PaidInSandbox {
  /** The merchant's return page, as loaded (`successUrl` or `errorUrl` with `payment_id`). */
  url: string
  /** The `payment_id` Till appended: check the status server-side before fulfilling, as the shop does. */
  paymentId: string
}

const WALLET: Record<SandboxOutcome, string> = {
  succeeded: 'Test Wallet: Pays',
  failed: 'Test Wallet: Declines',
  processing: 'Test Wallet: Slow',
}

const HEADING: Record<SandboxOutcome, string> = {
  succeeded: 'Payment successful',
  failed: 'Payment failed',
  processing: 'Payment processing',
}

/**
 * The buyer on Till's hosted checkout page (the page is there, or on its way after the shop's pay button): picks the test wallet for `outcome`,
 * keeps the first payment option and signs; resolves once the merchant's return page has loaded after the
 * 3-second countdown. With Playwright's clock installed (`page.clock.install()`) the countdown is run at
 * once; without it, the real 3 seconds pass. The payment's redirect must be enabled (both return URLs HTTPS).
 */
export async function payInSandbox(page: Page, outcome: SandboxOutcome, options: PayInSandboxOptions = {}): Promise<PaidInSandbox> {
  const timeout = options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }
  // The shop's button may still be taking the buyer there: the wallet shows once the page is Till's.
  const wallet = page.getByRole('button', { name: WALLET[outcome] })
  await wallet.waitFor(timeout)
  const checkout = new URL(page.url())
  const paymentId = checkout.pathname.split('/').at(-1) ?? ''
  await wallet.click(timeout)
  await page.getByRole('button', { name: /^Sign and pay / }).click(timeout)
  if (outcome === 'processing') {
    await page.getByRole('heading', { name: HEADING.processing }).waitFor(timeout)
    if (!options.confirm) throw new TypeError('payInSandbox: the processing outcome needs confirm, to release the slow wallet')
    await options.confirm(paymentId)
  }
  await page.getByRole('heading', { name: outcome === 'failed' ? HEADING.failed : HEADING.succeeded }).waitFor(timeout)
  const away = page.waitForURL((url) => url.origin !== checkout.origin || !url.pathname.startsWith(checkout.pathname), {
    waitUntil: 'load',
    ...timeout,
  })
  // The countdown: run on the page's clock when the test installed one (a page without it throws here).
  await page.clock.runFor(3_000).catch(() => {})
  await away
  const url = page.url()
  return { url, paymentId: new URL(url).searchParams.get('payment_id') ?? paymentId }
}
