import type { BrowserWalletConfirmRequest, CheckoutConfirmRequest, CheckoutSession, CheckoutStatus, PaymentOption } from '@till/contract'
import type { TemplateResult } from 'lit-html'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { GatewayError, type Gateway } from './api.ts'
import { CheckoutController } from './controller.ts'
import { quietDeps, TEST_ACCOUNT } from './controller-deps.test-helper.ts'
import type { Screen } from './controller-ports.ts'
import type { Model } from './model.ts'
import type { Actions } from './view.ts'
import type { AnnouncedWallet, Eip1193Provider } from './wallets/discovery.ts'
import { transferCall } from './wallets/transfer-call.ts'

// The controller's browser-wallet path, end to end inside the page: a recording screen instead of the
// DOM, a scripted gateway, and a fake EIP-1193 wallet. Timers are fake, so the retry backoff runs on
// the test's word, not the clock.

const BUYER = TEST_ACCOUNT
const MERCHANT = '0x52908400098527886E0F7030069857D2E4169EE7'
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const HASH = `0x${'5c'.repeat(32)}`

const option: PaymentOption = {
  id: 'usdc-base',
  network: { id: 'eip155:8453', name: 'Base' },
  tokenAmount: {
    unit: `caip19/eip155:8453/erc20:${USDC}`,
    value: '12500000',
    display: { assetSymbol: 'USDC', assetName: 'USD Coin', decimals: 6, networkName: 'Base' },
  },
  payTo: `eip155:8453:${MERCHANT}`,
  rate: '1 EUR = 1.0842 USDC',
}

const at = (status: CheckoutStatus['status']): CheckoutStatus => ({
  status,
  isFinal: false,
  expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
  serverTime: new Date().toISOString(),
  redirect: null,
  paid: null,
})

const session = (): CheckoutSession => ({
  paymentId: 'pay_1',
  merchant: { name: 'Shop', iconUrl: null },
  amount: { unit: 'iso4217/EUR', value: '1153', display: { assetSymbol: 'EUR', assetName: 'Euro', decimals: 2 } },
  sandbox: false,
  wallets: [{ id: 'browser', name: 'Browser wallet' }],
  state: at('pending'),
})

const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code })

/** A wallet whose every answer the test may replace; it keeps what it was asked. */
function fakeWallet(overrides: Record<string, (params: unknown) => unknown> = {}) {
  const asked: { method: string; params?: unknown }[] = []
  const answers: Record<string, (params: unknown) => unknown> = {
    eth_requestAccounts: () => [BUYER],
    eth_chainId: () => '0x2105',
    eth_sendTransaction: () => HASH,
    ...overrides,
  }
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      asked.push({ method, params })
      const answer = answers[method]
      if (!answer) throw rpcError(4200, `${method} is not supported`)
      return answer(params)
    },
  }
  const announced: AnnouncedWallet = { uuid: 'uuid-1', name: 'Fox Wallet', icon: null, provider }
  return { announced, asked, methods: () => asked.map((request) => request.method) }
}

const turn = () => new Promise((resolve) => setImmediate(resolve))

/**
 * The buttons a wallet screen offers, by their words: each `@click=${handler}>${label}` in its template.
 * A DOM-free stand-in for clicking, enough for screens built of plain templates.
 */
function buttons(view: TemplateResult): Map<string, () => void> {
  const found = new Map<string, () => void>()
  const walk = (values: readonly unknown[]) =>
    values.forEach((value, index) => {
      const label = values[index + 1]
      if (typeof value === 'function' && typeof label === 'string') found.set(label, value as () => void)
      if (value && typeof value === 'object' && 'values' in value) walk((value as TemplateResult).values)
    })
  walk(view.values)
  return found
}

/** Lets pending promises (the wallet's, the gateway's, the chunk's import) run until `condition`; no clock involved. */
async function until(condition: () => boolean) {
  for (let turns = 0; turns < 50 && !condition(); turns++) await turn()
  expect(condition()).toBe(true)
}

let running: CheckoutController | undefined
afterEach(() => {
  running?.dispose()
  vi.useRealTimers()
})

// The wallet chunk is loaded once here, so the controller's own import() of it answers from the cache.
beforeAll(async () => {
  await import('./wallets/browser-path.ts')
})

function startPage(wallet: ReturnType<typeof fakeWallet>, confirm: (request: CheckoutConfirmRequest) => Promise<CheckoutStatus>) {
  const shown: Model[] = []
  const announced: string[] = []
  const opened: string[] = []
  let actions: Actions | undefined
  const screen: Screen = {
    show(model, next) {
      shown.push(model)
      actions = next
    },
    announce: (text) => announced.push(text),
  }
  const confirmSpy = vi.fn(confirm)
  const api: Gateway = {
    options: async () => ({ options: [option] }),
    confirm: confirmSpy,
    expire: async () => at('expired'),
    devWallet: async () => {
      throw new Error('this page has no Local dev wallet')
    },
    // The long-poll answers only when the page stops; a zero wait is a read of the status now.
    status: (_after, waitMs, signal) =>
      waitMs === 0
        ? Promise.resolve(at('pending'))
        : new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')))),
  }
  running = new CheckoutController({
    screen,
    session: session(),
    api,
    ...quietDeps,
    open: (url) => opened.push(url),
    discoverWallets: (_fallbackName, onChange) => {
      onChange([wallet.announced])
      return () => {}
    },
  })
  running.start()
  const model = () => shown.at(-1) as Model
  const step = () => model().step
  const act = () => actions as Actions
  return { model, step, act, announced, opened, confirm: confirmSpy }
}

const isStep = (page: ReturnType<typeof startPage>, screen: string) => () => {
  const step = page.step()
  return step.name === 'wallet' && step.screen === screen
}

/** Picks the announced wallet and waits for the options the connected account can pay with. */
async function connect(page: ReturnType<typeof startPage>, wallet: ReturnType<typeof fakeWallet>) {
  expect(page.model().browserWallets).toEqual([wallet.announced])
  page.act().connectBrowser(wallet.announced)
  expect(page.step()).toMatchObject({ name: 'connecting', wallet: { id: 'browser', name: 'Fox Wallet' } })
  expect(page.announced.at(-1)).toBe('Check your wallet')
  await until(() => {
    const step = page.step()
    return step.name === 'choose' && step.options.state === 'ready'
  })
  expect(page.step()).toMatchObject({ name: 'choose', wallet: { id: 'browser', name: 'Fox Wallet' }, address: BUYER })
}

describe('the browser wallet path', () => {
  it('connects, signs the exact ERC-20 transfer and hands its hash to the service', async () => {
    const wallet = fakeWallet()
    const page = startPage(wallet, async () => at('processing'))
    await connect(page, wallet)

    page.act().pay()
    await until(() => page.model().status.status === 'processing')
    expect(page.confirm).toHaveBeenCalledExactlyOnceWith({
      walletId: 'browser',
      optionId: 'usdc-base',
      account: `eip155:8453:${BUYER}`,
      transactionHash: HASH,
      walletName: 'Fox Wallet',
    } satisfies BrowserWalletConfirmRequest)
    expect(wallet.methods()).toEqual(['eth_requestAccounts', 'eth_chainId', 'eth_sendTransaction'])
    expect(wallet.asked.at(-1)?.params).toEqual([
      { chainId: '0x2105', from: BUYER, to: USDC, data: transferCall(MERCHANT, 12_500_000n), value: '0x0' },
    ])
    expect(page.announced).toContain('Confirm in your wallet')
    expect(page.announced).toContain('Waiting for the network to see your transaction')
  })

  it('asks the wallet to switch to the option’s network first when it is on another', async () => {
    let chain = '0x1'
    const wallet = fakeWallet({
      eth_chainId: () => chain,
      wallet_switchEthereumChain: () => {
        chain = '0x2105'
        return null
      },
    })
    const page = startPage(wallet, async () => at('processing'))
    await connect(page, wallet)
    page.act().pay()
    await until(() => page.model().status.status === 'processing')
    expect(wallet.methods()).toEqual([
      'eth_requestAccounts',
      'eth_chainId',
      'wallet_switchEthereumChain',
      'eth_chainId',
      'eth_sendTransaction',
    ])
    expect(page.announced).toContain('Switch network in your wallet')
  })

  it('sends the buyer back to choose, with nothing sent, when they decline in the wallet', async () => {
    const wallet = fakeWallet({
      eth_sendTransaction: () => {
        throw rpcError(4001, 'User rejected the request.')
      },
    })
    const page = startPage(wallet, async () => at('processing'))
    await connect(page, wallet)
    page.act().pay()
    await until(() => page.model().notice !== null)
    expect(page.step()).toMatchObject({ name: 'choose', options: { state: 'ready', selected: 'usdc-base' } })
    expect(page.model().notice).toEqual({ kind: 'wallet', text: 'You declined in your wallet; nothing was sent. You can try again.' })
    expect(page.model().status.status).toBe('pending')
    expect(page.confirm).not.toHaveBeenCalled()
  })

  it('says the wallet does not know the network when it cannot switch to it', async () => {
    const wallet = fakeWallet({
      eth_chainId: () => '0x1',
      wallet_switchEthereumChain: () => {
        throw rpcError(4902, 'Unrecognized chain ID')
      },
    })
    const page = startPage(wallet, async () => at('processing'))
    await connect(page, wallet)
    page.act().pay()
    await until(() => page.model().notice !== null)
    expect(page.model().notice).toEqual({
      kind: 'wallet',
      text: 'Your wallet does not know the Base network. Add Base to your wallet, then try again.',
    })
    expect(page.step().name).toBe('choose')
  })

  it('goes back to the wallet list when the buyer refuses to connect', async () => {
    const wallet = fakeWallet({
      eth_requestAccounts: () => {
        throw rpcError(4001, 'User rejected the request.')
      },
    })
    const page = startPage(wallet, async () => at('processing'))
    page.act().connectBrowser(wallet.announced)
    await until(() => page.model().notice !== null)
    expect(page.step()).toEqual({ name: 'connect' })
    expect(page.model().notice).toMatchObject({ kind: 'wallet', text: expect.stringMatching(/^You declined in your wallet/) })
  })

  it('submits the hash again, backing off, while the network does not know the transaction yet', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    const wallet = fakeWallet()
    const notYet = () => Promise.reject(new GatewayError(409, 'transaction_not_found', 'Base does not know it yet'))
    const answers = [notYet, notYet, async () => at('processing')]
    const page = startPage(wallet, () => (answers.shift() ?? notYet)())
    await connect(page, wallet)

    page.act().pay()
    await until(() => page.confirm.mock.calls.length === 1)
    expect(page.step()).toMatchObject({ name: 'wallet', screen: 'submitted' })
    await vi.advanceTimersByTimeAsync(499)
    expect(page.confirm).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(page.confirm).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(page.confirm).toHaveBeenCalledTimes(3)
    await until(() => page.model().status.status === 'processing')
    // The same transaction each time: the wallet signed once.
    expect(new Set(page.confirm.mock.calls.map(([request]) => JSON.stringify(request))).size).toBe(1)
    expect(wallet.methods().filter((method) => method === 'eth_sendTransaction')).toHaveLength(1)
  })

  it('stops asking after about a minute and lets the buyer check again, never pay again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    const wallet = fakeWallet()
    let known = false
    const page = startPage(wallet, async () => {
      if (known) return at('processing')
      throw new GatewayError(409, 'transaction_not_found', 'Base does not know it yet')
    })
    await connect(page, wallet)
    page.act().pay()
    await until(() => page.confirm.mock.calls.length === 1)
    await vi.advanceTimersByTimeAsync(60_000)
    await until(isStep(page, 'stalled'))
    expect(page.announced.at(-1)).toBe('The network has not seen your transaction yet')
    // Pauses of 0.5, 1, 2, 4 and 8 s, then 8 s each, for 60 s in all: twelve submissions.
    expect(page.confirm).toHaveBeenCalledTimes(12)

    known = true
    const step = page.step()
    if (step.name !== 'wallet') throw new Error('not a wallet screen')
    buttons(step.view).get('Check again')?.()
    await until(() => page.model().status.status === 'processing')
    expect(page.confirm).toHaveBeenCalledTimes(13)
    expect(wallet.methods().filter((method) => method === 'eth_sendTransaction')).toHaveLength(1)
  })

  it('lets the buyer go back to the options from there', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    const wallet = fakeWallet()
    const page = startPage(wallet, () => Promise.reject(new GatewayError(409, 'transaction_not_found', 'not yet')))
    await connect(page, wallet)
    page.act().pay()
    await until(() => page.confirm.mock.calls.length === 1)
    await vi.advanceTimersByTimeAsync(60_000)
    await until(isStep(page, 'stalled'))
    const step = page.step()
    if (step.name !== 'wallet') throw new Error('not a wallet screen')
    buttons(step.view).get('Back to payment options')?.()
    expect(page.step()).toMatchObject({ name: 'choose', options: { state: 'ready' } })
  })

  it.each([
    [
      'a transfer that does not pay the option',
      new GatewayError(400, 'params_validation', 'Validation failed', {
        issues: [{ field: 'transactionHash', message: 'the transfer goes to 0xabc, not to the merchant' }],
      }),
      { kind: 'wallet', text: 'This transaction cannot pay this payment: the transfer goes to 0xabc, not to the merchant.' },
    ],
    [
      'a transaction another payment already has',
      new GatewayError(409, 'transaction_already_used', 'used'),
      { kind: 'wallet', text: 'This transaction has already paid for something else, so it cannot pay this payment.' },
    ],
    [
      'a payment that ended before the transfer came',
      new GatewayError(409, 'invalid_transition', 'ended', { details: { status: 'expired', late: true } }),
      { kind: 'wallet', text: 'Your transfer arrived after this payment had ended. It is recorded, and the shop can refund it.' },
    ],
  ])('tells the buyer about %s', async (_case, error, notice) => {
    const wallet = fakeWallet()
    const page = startPage(wallet, () => Promise.reject(error))
    await connect(page, wallet)
    page.act().pay()
    await until(() => page.model().notice !== null)
    expect(page.model().notice).toEqual(notice)
    expect(page.step().name).toBe('choose')
    expect(page.confirm).toHaveBeenCalledTimes(1)
  })

  it('asks the wallet nothing when the buyer goes back while it connects', async () => {
    let allow: (accounts: string[]) => void = () => {}
    const wallet = fakeWallet({ eth_requestAccounts: () => new Promise((resolve) => (allow = resolve)) })
    const page = startPage(wallet, async () => at('processing'))
    page.act().connectBrowser(wallet.announced)
    await until(() => wallet.asked.length === 1)
    page.act().changeWallet()
    allow([BUYER])
    for (let turns = 0; turns < 10; turns++) await turn()
    expect(page.step()).toEqual({ name: 'connect' })
    expect(page.model().notice).toBeNull()
  })
})

describe('the sandbox test wallets', () => {
  it('still pay with the sandbox request, unchanged', async () => {
    const wallet = fakeWallet()
    const page = startPage(wallet, async () => at('processing'))
    page.act().connect({ id: 'sandbox_pays', name: 'Test Wallet: Pays' })
    await until(() => {
      const step = page.step()
      return step.name === 'choose' && step.options.state === 'ready'
    })
    page.act().pay()
    await until(() => page.model().status.status === 'processing')
    expect(page.confirm).toHaveBeenCalledExactlyOnceWith({
      walletId: 'sandbox_pays',
      optionId: 'usdc-base',
      account: `eip155:8453:${BUYER}`,
    })
    expect(wallet.asked).toEqual([])
  })
})

describe('a wallet opened by a link (spec 4.8)', () => {
  it('is navigated to in this frame, and the page asks nothing itself', async () => {
    const wallet = fakeWallet()
    const page = startPage(wallet, async () => at('processing'))
    const link = 'https://pay.example.com/checkout/wallet-link?uri=wc%3Apay_1%402&returnUrl=myapp%3A%2F%2Fdone&preferUniversalLinks=1'
    page.act().connect({ id: 'sandbox_mobile', name: 'Mobile wallet (sandbox)', link })
    expect(page.opened).toEqual([link])
    expect(page.step()).toEqual({ name: 'connect' })
    expect(page.confirm).not.toHaveBeenCalled()
  })
})
