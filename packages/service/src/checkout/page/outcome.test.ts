import type { CheckoutSession, CheckoutStatus } from '@till/contract'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { templateText } from './template-text.test-helper.ts'
import { GatewayError, type Gateway } from './api.ts'
import { CheckoutController } from './controller.ts'
import { quietDeps } from './controller-deps.test-helper.ts'
import type { Screen } from './controller-ports.ts'
import type { Model } from './model.ts'
import { en } from './strings.ts'
import { type Actions, view } from './view.ts'

// The outcome chunk: the processing and final screens draw their headings at once and the rest once the
// chunk is there; a failed step's notice says generic words until then. A recording screen, no DOM.

const status = (state: CheckoutStatus['status'], extra: Partial<CheckoutStatus> = {}): CheckoutStatus => ({
  status: state,
  isFinal: state === 'succeeded' || state === 'failed' || state === 'expired',
  expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
  serverTime: new Date().toISOString(),
  redirect: null,
  paid: null,
  ...extra,
})

const session = (state: CheckoutStatus): CheckoutSession => ({
  paymentId: 'pay_1',
  merchant: { name: 'Shop', iconUrl: null },
  amount: { unit: 'iso4217/EUR', value: '1153', display: { assetSymbol: 'EUR', assetName: 'Euro', decimals: 2 } },
  sandbox: true,
  wallets: [{ id: 'sandbox_pays', name: 'Test Wallet: Pays' }],
  state,
})

const text = templateText
const shownText = (model: Model, actions: Actions) =>
  text(view(model, en, actions))
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')

const turn = () => new Promise((resolve) => setImmediate(resolve))
async function until(condition: () => boolean) {
  for (let turns = 0; turns < 50 && !condition(); turns++) await turn()
  expect(condition()).toBe(true)
}

// Loaded once here, so the controller's own import() of it answers from the cache within a few turns.
beforeAll(async () => {
  await import('./outcome.ts')
})

let running: CheckoutController | undefined
afterEach(() => {
  running?.dispose()
  vi.unstubAllGlobals()
})

function startPage(state: CheckoutStatus, api: Partial<Gateway> = {}) {
  const shown: Model[] = []
  let actions: Actions | undefined
  const screen: Screen = {
    show(model, next) {
      shown.push(model)
      actions = next
    },
    announce: () => {},
  }
  const never = (_after: unknown, _waitMs: number, signal: AbortSignal) =>
    new Promise<CheckoutStatus>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))))
  running = new CheckoutController({
    screen,
    session: session(state),
    api: { options: async () => ({ options: [] }), status: never, ...api } as Gateway,
    ...quietDeps,
  })
  running.start()
  const model = () => shown.at(-1) as Model
  return { shown, model, shownText: () => shownText(model(), actions as Actions), act: () => actions as Actions }
}

describe('the outcome chunk', () => {
  it('is not loaded while the buyer has only the wallets to choose from', async () => {
    const page = startPage(status('pending'))
    await turn()
    expect(page.model().outcome).toBeNull()
  })

  it("completes a final screen that was first drawn with its heading, and the redirect's countdown", async () => {
    // The page tells a native app's bridge it ended; there is none here.
    vi.stubGlobal('window', {})
    const redirect = { url: 'https://shop.example/paid', countdownMs: 3_000 }
    const page = startPage(status('succeeded', { redirect }))
    expect(page.shown[0]?.outcome).toBeNull()
    expect(text(view(page.shown[0] as Model, en, page.act()))).toContain('Payment successful')
    await until(() => page.model().outcome !== null)
    expect(page.shownText()).toContain('Payment successful Thank you. Your payment has been received.')
    expect(page.shownText()).toContain('Returning to Shop in 3 seconds.')
    expect(page.shownText()).toContain('Return to Shop now')
  })

  it("is fetched as soon as a wallet is picked, and words a failed step's notice", async () => {
    const page = startPage(status('pending'), {
      options: async () => {
        throw new GatewayError(429, 'rate_limited', 'slow down')
      },
    })
    page.act().connect({ id: 'sandbox_pays', name: 'Test Wallet: Pays' })
    await until(() => page.model().outcome !== null && page.model().notice !== null)
    expect(page.model().notice).toEqual({ kind: 'rateLimited' })
    expect(page.shownText()).toContain('Too many attempts. Wait a moment and try again.')
  })

  it('says generic words for such a notice until the chunk is there', () => {
    const page = startPage(status('pending'))
    const model: Model = { ...page.model(), notice: { kind: 'conflict' }, outcome: null }
    expect(shownText(model, page.act())).toContain('Something went wrong. Try again.')
  })
})
