import type { CheckoutStatus, PaymentOption } from '@till/contract'
import type { TemplateResult } from 'lit-html'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ChooseStep, Model, Step } from '../model.ts'
import { en } from '../strings.ts'
import { templateText } from '../template-text.test-helper.ts'
import { viewKit } from '../view.ts'
import { type PhoneHost, phoneScreen, showPhoneScreen } from './phone-wallet.ts'
import { phoneWords } from './phone-words.ts'
import { readQr } from './qr-read.test-helper.ts'

// The phone-wallet screen as a buyer meets it: the request as a QR code a reader reads back, the link that
// opens it, what to send where, with copy buttons, and the way back. Templates are read without a DOM.

const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const MERCHANT = '0x52908400098527886E0F7030069857D2E4169EE7'
const REQUEST = `ethereum:${USDC}@8453/transfer?address=${MERCHANT}&uint256=12500017`
const words = phoneWords.en

const option: PaymentOption = {
  id: 'usdc-base',
  network: { id: 'eip155:8453', name: 'Base' },
  tokenAmount: {
    unit: `caip19/eip155:8453/erc20:${USDC}`,
    value: '12500017',
    display: { assetSymbol: 'USDC', assetName: 'USD Coin', decimals: 6, networkName: 'Base' },
  },
  payTo: `eip155:8453:${MERCHANT}`,
  paymentRequest: REQUEST,
}

const pending: CheckoutStatus = {
  status: 'pending',
  isFinal: false,
  expiresAt: '2026-11-26T12:15:00.000Z',
  serverTime: '2026-11-26T12:00:00.000Z',
  redirect: null,
  paid: null,
}

const choosing = (options: PaymentOption[] = [option]): ChooseStep => ({
  name: 'choose',
  wallet: { id: 'browser', name: 'Fox Wallet' },
  address: '0x1111111111111111111111111111111111111111',
  options: { state: 'ready', options, selected: options[0]?.id ?? null },
})

/** A page that shows whatever step the phone screen hands it, on a sandbox payment or not. */
function pageAt(step: Step, sandbox = false) {
  let current = step
  const host: PhoneHost = {
    kit: viewKit,
    t: en,
    model: (): Model => ({
      session: { paymentId: 'pay_1', merchant: { name: 'Shop' }, sandbox, wallets: [], state: pending },
      status: pending,
      clockOffsetMs: 0,
      step: current,
      notice: null,
      browserWallets: [],
      redirectAt: null,
      now: Date.parse(pending.serverTime),
      outcome: null,
    }),
    show: (next) => {
      current = next
    },
  }
  return { host, step: () => current }
}

const viewOf = (step: Step): TemplateResult => {
  if (step.name !== 'wallet') throw new Error(`no wallet screen but ${step.name}`)
  return step.view
}

/** Each value bound in a template, nested ones included, with the markup just before it. */
function bindings(view: TemplateResult): [before: string, value: unknown][] {
  return view.values.flatMap((value, index) => {
    const own: [string, unknown] = [view.strings[index] ?? '', value]
    return value && typeof value === 'object' && 'values' in value ? [own, ...bindings(value as TemplateResult)] : [own]
  })
}

const bound = (view: TemplateResult, before: RegExp) => bindings(view).find(([markup]) => before.test(markup))?.[1]

/** The buttons of a screen by their words: each `@click=${handler}>${label}`. */
const button = (view: TemplateResult, label: string) => {
  const all = bindings(view)
  const at = all.findIndex(([, value], index) => typeof value === 'function' && all[index + 1]?.[1] === label)
  return at < 0 ? undefined : (all[at]?.[1] as () => Promise<void> | void)
}

const text = (step: Step) =>
  templateText(viewOf(step))
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the phone-wallet screen', () => {
  it('shows the payment request as a QR code that reads back as the request', () => {
    const view = viewOf(phoneScreen(pageAt(choosing()).host, choosing(), option))
    expect(bound(view, /<svg class="qr" role="img" aria-label=$/)).toBe('QR code of the payment request')
    const side = Number(bound(view, /viewBox="-4 -4 $/))
    expect(readQr(side - 8, String(bound(view, /<path d=$/)))).toBe(REQUEST)
  })

  it('links to the request itself, for a wallet app on this device', () => {
    const view = viewOf(phoneScreen(pageAt(choosing()).host, choosing(), option))
    expect(bound(view, /<a class="return-link" href=$/)).toBe(REQUEST)
    expect(bindings(view).map(([, value]) => value)).toContain('Open in a wallet app')
  })

  it('says where to send how much: the whole address, the amount as read and as sent, and why its digits are odd', () => {
    const shown = text(phoneScreen(pageAt(choosing()).host, choosing(), option))
    expect(shown).toContain('Pay from a phone wallet')
    expect(shown).toContain('12.500017 USDC on Base')
    expect(shown).toContain(`Send to ${MERCHANT} Copy address`)
    expect(shown).toContain('Amount 12.500017 USDC Copy amount Exactly 12500017 in the token’s smallest unit')
    expect(shown).toContain(words.uniqueAmount)
    expect(shown).toContain('This page moves on by itself once the network sees your transfer')
    expect(shown).not.toContain(words.sandboxWarning)
  })

  it('warns on a sandbox payment that a real wallet must not pay it', () => {
    expect(text(phoneScreen(pageAt(choosing(), true).host, choosing(), option))).toContain(words.sandboxWarning)
  })

  it('copies the address and the exact amount, and says so in its status line', async () => {
    const writeText = vi.fn(async (_text: string) => {})
    vi.stubGlobal('navigator', { clipboard: { writeText } })
    const page = pageAt(choosing())
    page.host.show(phoneScreen(page.host, choosing(), option))

    await button(viewOf(page.step()), 'Copy amount')?.()
    expect(writeText).toHaveBeenLastCalledWith('12.500017')
    expect(bound(viewOf(page.step()), /<p class="hint" role="status">$/)).toBe('Amount copied')

    await button(viewOf(page.step()), 'Copy address')?.()
    expect(writeText).toHaveBeenLastCalledWith(MERCHANT)
    expect(bound(viewOf(page.step()), /<p class="hint" role="status">$/)).toBe('Address copied')
  })

  it('says so when the browser will not copy', async () => {
    vi.stubGlobal('navigator', { clipboard: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) } })
    const page = pageAt(choosing())
    page.host.show(phoneScreen(page.host, choosing(), option))
    await button(viewOf(page.step()), 'Copy amount')?.()
    expect(bound(viewOf(page.step()), /<p class="hint" role="status">$/)).toBe(words.copyFailed)
  })

  it('goes back to the options the buyer chose from', () => {
    const from = choosing()
    const page = pageAt(from)
    page.host.show(phoneScreen(page.host, from, option))
    button(viewOf(page.step()), 'Back to other ways to pay')?.()
    expect(page.step()).toBe(from)
  })
})

describe('showing the phone screen once its chunk has loaded', () => {
  it('shows it for the option the buyer chose', () => {
    const page = pageAt(choosing())
    showPhoneScreen(page.host)
    expect(page.step()).toMatchObject({ name: 'wallet', screen: 'phone', announce: 'Pay from a phone wallet' })
  })

  it('shows nothing when the buyer went on meanwhile, or the option has no payment request', () => {
    const gone = pageAt({ name: 'connect' })
    showPhoneScreen(gone.host)
    expect(gone.step()).toEqual({ name: 'connect' })
    const browserOnly = choosing([{ ...option, paymentRequest: undefined }])
    const page = pageAt(browserOnly)
    showPhoneScreen(page.host)
    expect(page.step()).toBe(browserOnly)
  })
})
