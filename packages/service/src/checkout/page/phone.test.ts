import type { CheckoutStatus, CheckoutWallet, PaymentOption } from '@till/contract'
import type { TemplateResult } from 'lit-html'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Gateway } from './api.ts'
import { CheckoutController } from './controller.ts'
import { quietDeps } from './controller-deps.test-helper.ts'
import type { Model } from './model.ts'
import { en } from './strings.ts'
import { templateText } from './template-text.test-helper.ts'
import { type Actions, view } from './view.ts'

// "Pay from a phone wallet" through the page (issue 23, point 3): the choose screen offers it for an option
// with a payment request, the screen comes with its chunk, and the page follows the payment's status to the
// outcome as it always does: nothing on the phone screen moves the payment.

const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const REQUEST = `ethereum:${USDC}@8453/transfer?address=0x0000000000000000000000000000000000000000&uint256=13500000`

const option: PaymentOption = {
  id: 'usdc-base',
  network: { id: 'eip155:8453', name: 'Base' },
  tokenAmount: {
    unit: `caip19/eip155:8453/erc20:${USDC}`,
    value: '13500000',
    display: { assetSymbol: 'USDC', assetName: 'USD Coin', decimals: 6, networkName: 'Base' },
  },
  paymentRequest: REQUEST,
}

const at = (status: CheckoutStatus['status']): CheckoutStatus => ({
  status,
  isFinal: status === 'succeeded' || status === 'failed' || status === 'expired',
  expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
  serverTime: new Date().toISOString(),
  redirect: null,
  paid: null,
})

const PHONE: CheckoutWallet = { id: 'sandbox_phone', name: 'Phone wallet (sandbox)' }
const PAYS: CheckoutWallet = { id: 'sandbox_pays', name: 'Test Wallet: Pays' }
const PHONE_APP: CheckoutWallet = { id: 'phone', name: 'Phone wallet' }

const turn = () => new Promise((resolve) => setImmediate(resolve))
async function until(condition: () => boolean) {
  for (let turns = 0; turns < 50 && !condition(); turns++) await turn()
  expect(condition()).toBe(true)
}

/** The labels of the buttons a template draws: each `@click=${handler}>` followed by its words. */
function buttonLabels(template: unknown): string[] {
  if (Array.isArray(template)) return template.flatMap(buttonLabels)
  if (!template || typeof template !== 'object' || !('strings' in template)) return []
  const { strings, values } = template as TemplateResult
  return values.flatMap((value, index) => {
    const nested = buttonLabels(value)
    const after = templateText(values[index + 1]).trim()
    return typeof value === 'function' && strings[index]?.endsWith('@click=') ? [after, ...nested] : nested
  })
}

let running: CheckoutController | undefined
afterEach(() => running?.dispose())

// The phone chunk is loaded once here (the QR encoder with it), so the controller's import() answers from the cache.
beforeAll(async () => {
  await import('./wallets/phone-wallet.ts')
})

/** A sandbox page whose long-poll answers with the statuses the test releases, one per poll. */
function startPage(wallets: CheckoutWallet[], options: PaymentOption[] = [option]) {
  const shown: { model: Model; actions: Actions }[] = []
  const releases: ((status: CheckoutStatus) => void)[] = []
  const api = {
    options: async () => ({ options }),
    confirm: async () => at('processing'),
    expire: async () => at('expired'),
    devWallet: async () => ({ result: null }),
    status: (_after, _waitMs, signal) =>
      new Promise<CheckoutStatus>((resolve, reject) => {
        releases.push(resolve)
        signal.addEventListener('abort', () => reject(new Error('stopped')))
      }),
  } satisfies Gateway
  running = new CheckoutController({
    screen: { show: (model, actions) => shown.push({ model, actions }), announce: () => {} },
    session: { paymentId: 'pay_1', merchant: { name: 'Shop' }, sandbox: true, wallets, state: at('pending') },
    api,
    ...quietDeps,
  })
  running.start()
  const last = () => shown.at(-1) as { model: Model; actions: Actions }
  return {
    model: () => last().model,
    act: () => last().actions,
    labels: () => buttonLabels(view(last().model, en, last().actions)),
    /** The service answers the page's long-poll: the payment is now `status`. */
    answer: (status: CheckoutStatus['status']) => releases.shift()?.(at(status)),
  }
}

async function choose(page: ReturnType<typeof startPage>, wallet: CheckoutWallet) {
  page.act().connect(wallet)
  await until(() => page.model().step.name === 'choose' && page.labels().length > 1)
}

describe('paying from a phone wallet', () => {
  it('is the one way the sandbox phone wallet pays, for an option with a payment request', async () => {
    const page = startPage([PAYS, PHONE])
    await choose(page, PHONE)
    expect(page.labels()).toEqual(['Pay from a phone wallet', 'Use another wallet', 'Expire now (test mode)'])
  })

  it('is not offered beside the sandbox test wallets, which pay by themselves', async () => {
    const page = startPage([PAYS, PHONE])
    await choose(page, PAYS)
    expect(page.labels()).toEqual(['Sign and pay 13.50 USDC', 'Use another wallet', 'Expire now (test mode)'])
  })

  it('is offered beside a browser wallet, as another way to pay the same option, when it has a payment request', async () => {
    const page = startPage([PHONE])
    await choose(page, PHONE)
    const step = page.model().step
    if (step.name !== 'choose') throw new Error('not choosing')
    const labels = (options: PaymentOption[]) =>
      buttonLabels(
        view(
          {
            ...page.model(),
            step: { ...step, wallet: { id: 'browser', name: 'Fox Wallet' }, options: { state: 'ready', options, selected: option.id } },
          },
          en,
          page.act(),
        ),
      )
    expect(labels([option])).toEqual(['Sign and pay 13.50 USDC', 'Pay from a phone wallet', 'Use another wallet', 'Expire now (test mode)'])
    expect(labels([{ ...option, paymentRequest: undefined }])).toEqual([
      'Sign and pay 13.50 USDC',
      'Use another wallet',
      'Expire now (test mode)',
    ])
  })

  it('is a wallet of its own on a chain’s page, so a buyer with no browser wallet can pay: only options with a payment request', async () => {
    const page = startPage(
      [{ id: 'browser', name: 'Browser wallet' }, PHONE_APP],
      [{ ...option, id: 'no-request', paymentRequest: undefined }, option],
    )
    expect(templateText(view(page.model(), en, page.act()))).toContain('Phone wallet')
    await choose(page, PHONE_APP)
    const step = page.model().step
    expect(step).toMatchObject({ name: 'choose', options: { state: 'ready', options: [option], selected: option.id } })
    // Nothing is connected: no account is named.
    expect(templateText(view(page.model(), en, page.act()))).not.toContain('Connected')
    expect(page.labels()).toEqual(['Pay from a phone wallet', 'Use another wallet', 'Expire now (test mode)'])
  })

  it('says so when no option can be paid from a phone wallet, and offers the other wallets', async () => {
    const page = startPage([{ id: 'browser', name: 'Browser wallet' }, PHONE_APP], [{ ...option, paymentRequest: undefined }])
    await choose(page, PHONE_APP)
    expect(templateText(view(page.model(), en, page.act()))).toContain('This wallet cannot pay this payment. Use another wallet.')
    expect(page.labels()).toEqual(['Use another wallet', 'Expire now (test mode)'])
  })

  it('shows the phone screen, then the outcome once the service says the transfer paid the payment', async () => {
    const page = startPage([PHONE])
    await choose(page, PHONE)
    page.act().payByPhone()
    await until(() => page.model().step.name === 'wallet')
    expect(page.model().step).toMatchObject({ name: 'wallet', screen: 'phone', announce: 'Pay from a phone wallet' })
    expect(page.labels()).toEqual(['Copy address', 'Copy amount', 'Back to other ways to pay'])

    // A phone wallet pays, out of the page's sight; the service's status is what moves the page.
    page.answer('processing')
    await until(() => page.model().status.status === 'processing')
    expect(page.model().step).toEqual({ name: 'connect' })
    page.answer('succeeded')
    await until(() => page.model().status.status === 'succeeded')
    expect(templateText(view(page.model(), en, page.act()))).toContain('Payment successful')
  })
})
