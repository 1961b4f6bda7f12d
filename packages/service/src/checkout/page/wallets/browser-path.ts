import type { BrowserWalletConfirmRequest, CheckoutStatus, CheckoutWallet, ErrorBody, PaymentOption } from '@till/contract'
import type { Gateway } from '../api.ts'
import type { ChooseStep, Model, Notice, Step } from '../model.ts'
import type { Strings } from '../strings.ts'
import type { ViewKit } from '../view.ts'
import type { AnnouncedWallet } from './discovery.ts'
import { chainIdOf, requestAccount, sendTransaction, switchChain, walletFailure } from './eip1193.ts'
import { walletScreens } from './screens.ts'
import { type Address, transferRequest } from './transfer-call.ts'
import { type WalletWords, wordsFor } from './words.ts'

// The wallet chunk's entry: loaded only once the buyer picks a browser wallet. It imports nothing but
// types from the page's own modules (a module both used would be split into a third file that the
// page's script loads up front); what it needs of them, the page lends it through the host.

/** What the page lends the wallet chunks: its model, its gateway, its clock and its view pieces. */
export type BrowserPathHost = {
  kit: ViewKit
  t: Strings
  model(): Model
  show(step: Step, notice?: Notice | null): void
  loadOptions(wallet: CheckoutWallet, address: string): void
  /** Takes a status from the service: the only source of the payment's state. */
  apply(status: CheckoutStatus): void
  api: Pick<Gateway, 'confirm' | 'status'>
  /** Aborts when the page stops. */
  signal: AbortSignal
  /** Resolves after `ms`, or as soon as the page stops. */
  wait(ms: number): Promise<void>
}

// A node learns of a transaction a moment after the wallet hands out its hash: ask again, doubling the
// pause up to 8 s, for a minute in all. After that the buyer decides, with what their wallet shows.
const FIRST_RETRY_MS = 500
const MAX_RETRY_MS = 8_000
const RETRY_FOR_MS = 60_000

/** The gateway's error as the page's api module throws it, read by its shape so this chunk need not import it. */
type Failure = { status: number; code: string; body?: Pick<ErrorBody, 'details' | 'issues'> }

const failureOf = (error: unknown): Failure | null =>
  error instanceof Error && typeof (error as Partial<Failure>).status === 'number' ? (error as unknown as Failure) : null

/** Not this transaction's fault: the network does not know it yet, or the RPC or the service is away. */
const transient = (failure: Failure | null) =>
  failure === null || failure.code === 'transaction_not_found' || failure.status === 0 || failure.status === 429 || failure.status >= 500

function walletNotice(words: WalletWords, error: unknown, option?: PaymentOption): Notice {
  const failure = walletFailure(error)
  const text =
    failure === 'declined'
      ? words.declined
      : failure === 'unknownChain' && option
        ? words.unknownChain(option.network.name)
        : failure === 'busy'
          ? words.walletBusy
          : words.walletFailed
  return { kind: 'wallet', text }
}

type Submission = { from: ChooseStep; option: PaymentOption; hash: `0x${string}` }

export function browserPath(host: BrowserPathHost, announced: AnnouncedWallet, signsForYou = false) {
  const { provider } = announced
  const words = wordsFor(host.t.locale)
  const screens = walletScreens(host.kit, host.t, words)
  const notice = (text: string): Notice => ({ kind: 'wallet', text })
  const settled = () => host.model().status.status !== 'pending'
  let busy = false

  /** Hands the hash to the service until it answers for it; the payment's status only ever comes from there. */
  async function submit(submission: Submission): Promise<void> {
    const { from, option, hash } = submission
    host.show(screens.submitted(option, hash))
    const request: BrowserWalletConfirmRequest = {
      walletId: 'browser',
      optionId: option.id,
      account: `${option.network.id}:${from.address}`,
      transactionHash: hash,
      // The gateway takes at most 64 characters; the page shows the whole name.
      walletName: announced.name.slice(0, 64),
    }
    let waited = 0
    for (let attempt = 0; ; attempt++) {
      let failure: Failure | null
      try {
        return host.apply(await host.api.confirm(request))
      } catch (error) {
        failure = failureOf(error)
      }
      if (settled()) return
      if (!transient(failure)) return refused(from, failure)
      if (waited >= RETRY_FOR_MS) {
        const again = () => void submit(submission)
        return host.show(screens.stalled(option, hash, again, () => host.show(from)))
      }
      const pause = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt, RETRY_FOR_MS - waited)
      waited += pause
      await host.wait(pause)
      if (settled()) return
    }
  }

  async function refused(from: ChooseStep, failure: Failure | null) {
    if (failure?.code === 'transaction_already_used') {
      // An earlier attempt may have paid after all, its answer lost on the way: the status says so.
      const status = await host.api.status(host.model().status.status, 0, host.signal).catch(() => null)
      if (status && status.status !== 'pending') return host.apply(status)
      return host.show(from, notice(words.alreadyUsed))
    }
    if (failure?.code === 'invalid_transition') {
      // The payment ended meanwhile; the status that says so reaches the page by its long-poll.
      return host.show(from, failure.body?.details?.late === true ? notice(words.late) : { kind: 'conflict' })
    }
    const issue = failure?.body?.issues?.[0]
    if (failure?.status === 400 && issue?.field === 'transactionHash') return host.show(from, notice(words.refused(issue.message)))
    host.show(from, { kind: 'unknown' })
  }

  return {
    /** Asks the wallet for an account, unless the buyer has left the step that asked meanwhile. */
    async connect(step: Step) {
      try {
        const address = await requestAccount(provider)
        if (host.model().step === step) host.loadOptions({ id: 'browser', name: announced.name }, address)
      } catch (error) {
        if (host.model().step === step) host.show({ name: 'connect' }, walletNotice(words, error))
      }
    },

    /** Switches the wallet to the option's chain, has it sign the transfer, then submits the hash. */
    async pay(from: ChooseStep, option: PaymentOption) {
      if (busy) return
      busy = true
      let hash: `0x${string}`
      try {
        const transfer = transferRequest(option)
        if ((await chainIdOf(provider)) !== transfer.chainId) {
          host.show(screens.switching(announced.name, option))
          await switchChain(provider, transfer.chainId)
        }
        host.show(screens.signing(option, signsForYou))
        hash = await sendTransaction(provider, {
          chainId: transfer.chainId,
          from: from.address as Address,
          to: transfer.token,
          data: transfer.data,
        })
      } catch (error) {
        busy = false
        // Nothing was sent: the payment is still pending, and the buyer is back where they chose.
        return host.show(from, error instanceof RangeError ? { kind: 'unknown' } : walletNotice(words, error, option))
      }
      // From here there is a transaction: it is submitted even if the payment ended meanwhile, so that a
      // late transfer is recorded for the merchant to refund.
      await submit({ from, option, hash })
      busy = false
    },
  }
}

export type BrowserPath = ReturnType<typeof browserPath>
