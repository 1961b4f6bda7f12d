// docs/embedded-checkout.md's "The host in TypeScript" shows examples/host.ts; this runs it, against the built
// package as an app imports it.
import { readFileSync } from 'node:fs'
import { URL } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import { checkoutScreen, type Host } from './host.ts'

const payment = { paymentId: 'pay_1', gatewayUrl: 'https://pay.example/checkout/pay_1?lang=en' }
const walletLink = 'https://metamask.app.link/wc?uri=wc:7f6e@2?relay-protocol=irn&symKey=abc'

function fakeHost(paid: boolean) {
  const shown: string[] = []
  const host = {
    openInOS: vi.fn((_url: string) => Promise.reject(new Error('no wallet installed'))),
    verifyPayment: vi.fn(async (_paymentId: string) => ({ paid })),
    show: (text: string) => shown.push(text),
  } satisfies Host
  return { host, shown }
}

describe('the guide’s host example', () => {
  it('loads the gatewayUrl with returnUrl and preferUniversalLinks=1, keeping its own parameters', () => {
    const { address } = checkoutScreen(fakeHost(true).host, payment)
    expect(address).toBe('https://pay.example/checkout/pay_1?lang=en&returnUrl=myshop%3A%2F%2Fcheckout%2Fdone&preferUniversalLinks=1')
  })

  it('hands a wallet link whole to the OS, shrugs off a missing wallet, and loads only https and about', async () => {
    const { host } = fakeHost(true)
    const screen = checkoutScreen(host, payment)
    expect(screen.shouldLoad(walletLink)).toBe(false)
    expect(host.openInOS).toHaveBeenCalledExactlyOnceWith(walletLink)
    await new Promise((resolve) => setTimeout(resolve, 0)) // the rejection is handled
    expect(screen.shouldLoad(payment.gatewayUrl)).toBe(true)
    expect(screen.shouldLoad('about:blank')).toBe(true)
    for (const url of ['tel:+15551234567', 'sms:+1555', 'intent://x#Intent;end', 'javascript:alert(1)', 'http://pay.example/']) {
      expect(screen.shouldLoad(url), url).toBe(false)
    }
    expect(host.openInOS).toHaveBeenCalledTimes(1)
  })

  it('marks the order paid only when the backend’s server-side check says so', async () => {
    const real = fakeHost(true)
    await checkoutScreen(real.host, payment).onMessage('{"type":"PAY_SUCCESS","success":true}')
    expect(real.host.verifyPayment).toHaveBeenCalledExactlyOnceWith('pay_1')
    expect(real.shown).toEqual(['Thank you! Your order is paid.'])

    // A PAY_SUCCESS posted by anyone for an unpaid payment fulfils nothing.
    const forged = fakeHost(false)
    await checkoutScreen(forged.host, payment).onMessage('{"type":"PAY_SUCCESS"}')
    expect(forged.shown).toEqual(['Waiting for the payment to be confirmed…'])
  })

  it('shows a failure’s reason, and ignores what is not a bridge message', async () => {
    const { host, shown } = fakeHost(false)
    const screen = checkoutScreen(host, payment)
    await screen.onMessage('{"type":"PAY_FAILURE","success":false,"error":"The payment expired"}')
    await screen.onMessage('{"success":false}')
    await screen.onMessage('not json')
    await screen.onMessage('{"type":"PAY_SUCCESS","success":false}')
    await screen.onMessage({ type: 'PAY_SUCCESS' })
    expect(shown).toEqual(['Payment failed: The payment expired', 'Payment failed: please try again'])
    expect(host.verifyPayment).not.toHaveBeenCalled()
  })

  it('verifies when the buyer closes the checkout with no message', async () => {
    const { host, shown } = fakeHost(true)
    await checkoutScreen(host, payment).onClose()
    expect(host.verifyPayment).toHaveBeenCalledExactlyOnceWith('pay_1')
    expect(shown).toEqual(['Thank you! Your order is paid.'])
  })
})

describe('docs/embedded-checkout.md', () => {
  it('shows examples/host.ts exactly as it is', () => {
    const guide = readFileSync(new URL('../../../docs/embedded-checkout.md', import.meta.url), 'utf8')
    const source = readFileSync(new URL('./host.ts', import.meta.url), 'utf8')
    expect(guide).toContain(`\`\`\`ts\n${source}\`\`\``)
  })

  it('is linked from README.md', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')
    expect(readme).toContain('(docs/embedded-checkout.md)')
  })
})
