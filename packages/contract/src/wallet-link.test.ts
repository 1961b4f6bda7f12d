import { describe, expect, it } from 'vitest'
import { isWalletLink, parseSandboxWalletLink, returnUrlProblem, sandboxWalletConnectUri } from './wallet-link.ts'

describe('wallet links', () => {
  const uri = sandboxWalletConnectUri({ paymentId: 'pay_abc' })
  const link = `https://pay.example.com/checkout/wallet-link?uri=${encodeURIComponent(uri)}&returnUrl=${encodeURIComponent('myapp://done?x=1')}&preferUniversalLinks=1`

  it('are told apart by a uri parameter starting with wc:', () => {
    expect(isWalletLink(link)).toBe(true)
    expect(isWalletLink('metamask://wc?uri=wc%3Aabc%402')).toBe(true)
    expect(isWalletLink('https://pay.example.com/checkout/wallet-link?uri=https%3A%2F%2Fevil')).toBe(false)
    expect(isWalletLink('not a url')).toBe(false)
  })

  it('carry a sandbox payment and the app’s return link, and no key', () => {
    expect(uri).toBe('wc:pay_abc@2?relay-protocol=till-sandbox')
    expect(parseSandboxWalletLink(link)).toEqual({
      checkoutUrl: 'https://pay.example.com/checkout',
      paymentId: 'pay_abc',
      returnUrl: 'myapp://done?x=1',
    })
  })

  it('other wallets’ links are not sandbox links', () => {
    expect(
      parseSandboxWalletLink('https://pay.example.com/checkout/wallet-link?uri=wc%3Aabc%402%3Frelay-protocol%3Dirn%26symKey%3Dk'),
    ).toBeNull()
    expect(parseSandboxWalletLink(`https://pay.example.com/elsewhere?uri=${encodeURIComponent(uri)}`)).toBeNull()
  })
})

describe('returnUrl', () => {
  it.each(['myapp://checkout/done', 'https://app.example.com/return', 'http://127.0.0.1:8080/back', 'http://localhost/back'])(
    'takes %s',
    (url) => {
      expect(returnUrlProblem(url)).toBeUndefined()
    },
  )

  it.each([
    ['checkout/done', 'must be an absolute URL'],
    ['javascript:alert(1)', 'not a javascript: URL'],
    ['data:text/html,hi', 'not a data: URL'],
    ['file:///etc/passwd', 'not a file: URL'],
    ['http://app.example.com/return', 'must use https'],
  ])('refuses %s', (url, words) => {
    expect(returnUrlProblem(url)).toContain(words)
  })
})
