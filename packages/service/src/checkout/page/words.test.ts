import type { CheckoutPaid, CheckoutStatus, CheckoutWallet, PaymentOption } from '@till/contract'
import { describe, expect, it } from 'vitest'
import { templateText } from './template-text.test-helper.ts'
import { amountLabels } from './amount-labels.ts'
import type { PageSession } from './bootstrap.ts'
import type { Model, Step } from './model.ts'
import { outcomeScreens } from './outcome.ts'
import { en } from './strings.ts'
import { type Actions, view, viewKit } from './view.ts'
import { DEV_WALLET_UUID } from './wallets/discovery.ts'
import { walletScreens } from './wallets/screens.ts'
import { walletWords } from './wallets/words.ts'
import type { AnnouncedWallet } from './wallets/discovery.ts'

// The checkout's words at every step (issue 22, point 5): what the amount is, what the buyer pays or paid
// with, and, on a local chain, no word of the sandbox or its test wallets. Templates read as text, no DOM.

const text = templateText

const USDC = 'eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'

const paid: CheckoutPaid = {
  account: 'eip155:8453:0x1111111111111111111111111111111111111111',
  walletName: 'Test Wallet: Pays',
  network: { id: 'eip155:8453', name: 'Base' },
  transactionHash: `0x${'5c'.repeat(32)}`,
  tokenAmount: { unit: `caip19/${USDC}`, value: '12450000', display: { assetSymbol: 'USDC', assetName: 'USD Coin', decimals: 6 } },
}

const status = (state: CheckoutStatus['status']): CheckoutStatus => ({
  status: state,
  isFinal: state === 'succeeded' || state === 'failed' || state === 'expired',
  expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
  serverTime: new Date().toISOString(),
  redirect: null,
  paid: state === 'pending' ? null : paid,
})

const TEST_WALLETS: CheckoutWallet[] = [
  { id: 'sandbox_pays', name: 'Test Wallet: Pays' },
  { id: 'sandbox_declines', name: 'Test Wallet: Declines' },
]
const LOCAL_WALLETS: CheckoutWallet[] = [
  { id: 'browser', name: 'Browser wallet' },
  { id: 'browser', name: 'Local dev wallet', devAccount: 'eip155:31337:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' },
]

const session = (extra: Partial<PageSession> = {}): PageSession => ({
  paymentId: 'pay_1',
  merchant: { name: 'Shop' },
  sandbox: true,
  wallets: TEST_WALLETS,
  state: status('pending'),
  ...extra,
})

const actions = new Proxy({}, { get: () => () => {} }) as Actions

function model(state: CheckoutStatus['status'], extra: Partial<Model> = {}): Model {
  const now = Date.now()
  return {
    session: session(),
    status: status(state),
    clockOffsetMs: 0,
    step: { name: 'connect' },
    notice: null,
    browserWallets: [],
    redirectAt: null,
    now,
    outcome: outcomeScreens(viewKit, en),
    ...extra,
  }
}

const shown = (shownModel: Model) =>
  text(view(shownModel, en, actions))
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')

describe('the amount label', () => {
  it('says what the amount is at each status', () => {
    const labels = outcomeScreens(viewKit, en).amountLabel
    expect(labels).toEqual({
      pending: 'Amount due',
      processing: 'Amount being paid',
      succeeded: 'Amount paid',
      failed: 'Amount not charged',
      expired: 'Amount not paid',
      cancelled: 'Amount not charged',
    })
    expect(labels).toBe(amountLabels.en)
  })

  it('never says the amount is due once the payment has left pending', () => {
    const labels = outcomeScreens(viewKit, en).amountLabel
    for (const state of ['processing', 'succeeded', 'failed', 'expired', 'cancelled'] as const) {
      expect(labels[state], state).not.toMatch(/due/i)
    }
  })
})

describe('what the buyer pays with', () => {
  it('is "Paying with" while the payment is processing', () => {
    const words = shown(model('processing'))
    expect(words).toContain('Payment processing')
    expect(words).toContain('Paying with 12.45 USDC on Base')
    expect(words).not.toContain('Paid with')
  })

  it('is "Paid with" once the payment succeeded', () => {
    const words = shown(model('succeeded'))
    expect(words).toContain('Payment successful')
    expect(words).toContain('Paid with 12.45 USDC on Base')
  })

  it('is not shown once the payment failed or expired: nothing was paid', () => {
    for (const state of ['failed', 'expired'] as const) {
      const words = shown(model(state))
      expect(words, state).toContain(state === 'failed' ? 'Payment failed' : 'Payment expired')
      expect(words, state).not.toMatch(/Paid with|Paying with/)
    }
  })
})

describe('the rate', () => {
  const option: PaymentOption = {
    id: 'usdc-base',
    network: { id: 'eip155:8453', name: 'Base' },
    tokenAmount: paid.tokenAmount as PaymentOption['tokenAmount'],
    rate: '1 EUR = 1.08 USDC (fixed sandbox rate)',
  }
  const choose: Step = {
    name: 'choose',
    wallet: TEST_WALLETS[0] as CheckoutWallet,
    address: '0x1111111111111111111111111111111111111111',
    options: { state: 'ready', options: [option], selected: option.id },
  }

  it('is shown with each option, as the gateway API words it', () => {
    expect(shown(model('pending', { step: choose }))).toContain('12.45 USDC on Base Rate: 1 EUR = 1.08 USDC (fixed sandbox rate)')
  })

  it('signing with the dev wallet, asks the buyer nothing; with any other wallet, asks them to approve', () => {
    const screens = walletScreens(viewKit, en, walletWords.en)
    const signing = (signsForYou: boolean) => shown(model('pending', { step: screens.signing(option, signsForYou) }))
    expect(signing(true)).toContain('The Local dev wallet signs and sends the transfer for you: there is nothing to approve.')
    expect(signing(true)).not.toMatch(/approve the/i)
    expect(signing(false)).toContain('Approve the transaction in your wallet to pay.')
  })
})

describe('the connect screen', () => {
  it('in the sandbox, says the test wallets always end the payment the same way', () => {
    const words = shown(model('pending'))
    expect(words).toContain('Test mode: no real money moves. Each test wallet always ends the payment the same way.')
    expect(words).toContain('Expire now (test mode)')
  })

  it('on a local chain, speaks of no sandbox and no test wallets, and says what the dev wallet does', () => {
    const dev: AnnouncedWallet = { uuid: DEV_WALLET_UUID, name: 'Local dev wallet', icon: null, provider: { request: async () => null } }
    const words = shown(model('pending', { session: session({ localChain: true, wallets: LOCAL_WALLETS }), browserWallets: [dev] }))
    expect(words).toContain('Local dev wallet Signs for you with a funded test account.')
    expect(words).not.toContain('Test mode: no real money moves.')
    expect(words).toContain('Expire now (test mode)')
    expect(words).not.toMatch(/sandbox|test wallet|approve/i)
  })

  it('asks nothing of the buyer while the dev wallet connects: it signs for you', () => {
    const connecting = model('pending', {
      session: session({ localChain: true, wallets: LOCAL_WALLETS }),
      step: { name: 'connecting', wallet: { id: 'browser', name: 'Local dev wallet' }, signsForYou: true },
    })
    const words = shown(connecting)
    expect(words).toContain('Signs for you with a funded test account.')
    expect(words).not.toMatch(/approve the|sandbox|test wallet/i)
  })

  it('describes a browser wallet as one the buyer approves the payment in', () => {
    const found: AnnouncedWallet = { uuid: 'x', name: 'Rabby', icon: null, provider: { request: async () => null } }
    const words = shown(
      model('pending', { session: session({ sandbox: false, wallets: [LOCAL_WALLETS[0] as CheckoutWallet] }), browserWallets: [found] }),
    )
    expect(words).toContain('Rabby Connect, then approve the payment in this wallet.')
    expect(words).not.toContain('Test mode')
  })
})
