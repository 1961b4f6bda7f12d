import type { CheckoutStatus, CheckoutWallet, PaymentOption } from '@till/contract'
import { type FinalStatus, isFinalStatus, type MerchantPaymentStatus, STATUS_PROGRESS, TRANSITIONS } from '@till/contract/statuses'
import type { TemplateResult } from 'lit-html'
import type { PageSession } from './bootstrap.ts'
import type { Strings } from './strings.ts'
import type { AnnouncedWallet } from './wallets/discovery.ts'

/** What the page knows and shows; views are pure functions of it. */

export type OptionsLoad = { state: 'loading' } | { state: 'ready'; options: PaymentOption[]; selected: string | null } | { state: 'error' }

/** The wallet chunks' own screens (wallets/screens.ts, phone-wallet.ts draw them), after the buyer connected. */
export type WalletScreen = 'switching' | 'signing' | 'submitted' | 'stalled' | 'phone'

/** Where the buyer is while the payment is pending. */
export type Step =
  | { name: 'connect' }
  /** A browser wallet asks the buyer to let the page see an account. */
  | { name: 'connecting'; wallet: CheckoutWallet /** A local chain's dev wallet: it asks the buyer nothing. */; signsForYou?: boolean }
  | { name: 'choose'; wallet: CheckoutWallet; address: string; options: OptionsLoad }
  /** A sandbox test wallet "signs". */
  | { name: 'signing'; wallet: CheckoutWallet; address: string; option: PaymentOption }
  /**
   * A screen of the wallet chunk once it is loaded (switch network, sign, wait for the network to see the
   * transaction), drawn with its own template and words; `announce` is what the live region says of it.
   */
  | { name: 'wallet'; screen: WalletScreen; view: TemplateResult; announce: string }

export type ChooseStep = Extract<Step, { name: 'choose' }>

/** Whether the wallet pays the option's payment request (shown as a QR code) rather than signing on the page. */
export const paysByRequest = (wallet: CheckoutWallet): boolean => wallet.id === 'phone' || wallet.id === 'sandbox_phone'

/** The options a wallet can pay: a phone wallet only those with a payment request. */
export const payableOptions = (wallet: CheckoutWallet, options: PaymentOption[]): PaymentOption[] =>
  paysByRequest(wallet) ? options.filter((option) => option.paymentRequest) : options

/** The option the buyer has chosen, once the options are there. */
export function selectedOption(step: Step): PaymentOption | undefined {
  const load = step.name === 'choose' ? step.options : undefined
  return load?.state === 'ready' ? load.options.find((option) => option.id === load.selected) : undefined
}

/**
 * What went wrong once the buyer picked a wallet: its words come with the outcome chunk, which the page
 * fetches at that moment (outcome.ts), and the page says `errors.unknown` until they are there.
 */
export type LaterNotice = 'optionsFailed' | 'rateLimited' | 'conflict'

export type Notice =
  | { kind: LaterNotice }
  | { kind: keyof Strings['errors'] }
  /** What the wallet chunk reports, in its own words. */
  | { kind: 'wallet'; text: string }

export type Model = {
  session: PageSession
  status: CheckoutStatus
  /** Server clock minus page clock, so deadlines are counted on the server's time. */
  clockOffsetMs: number
  step: Step
  notice: Notice | null
  /** The wallets this browser has, when the payment is paid from one (EIP-6963, else `window.ethereum`). */
  browserWallets: AnnouncedWallet[]
  /** Page-clock time at which the redirect happens, once the countdown runs. */
  redirectAt: number | null
  /** Page-clock time of the last render that shows a timer. */
  now: number
  /** What the processing and final screens show below their headings, once the outcome chunk has loaded. */
  outcome: OutcomeScreens | null
}

/** The outcome chunk's screens (outcome.ts): its part of each screen after the payment left pending. */
export type OutcomeScreens = {
  processing(model: Model): TemplateResult
  final(model: Model, status: FinalView): TemplateResult
  notices: Record<LaterNotice, string>
  /** The label of the amount at the top of the page, by the payment's status (amount-labels.ts). */
  amountLabel: Record<CheckoutStatus['status'], string>
}

/** The newer of two observations of the same payment; an ended payment keeps the end it was first seen with. */
export function newer(current: CheckoutStatus, next: CheckoutStatus): CheckoutStatus {
  // An answer that arrives late must not move the page back.
  if (STATUS_PROGRESS[next.status] > STATUS_PROGRESS[current.status]) return next
  return next.status === current.status ? next : current
}

export type FinalView = FinalStatus
export type ViewKey = 'connect' | 'connecting' | 'choose' | 'signing' | `wallet-${WalletScreen}` | 'processing' | FinalView

/** A view of a final status: the page's end, decided as the contract decides final. */
export const isFinalView = (key: ViewKey): key is FinalView => key in TRANSITIONS && isFinalStatus(key as MerchantPaymentStatus)

/** Which screen the model shows: the payment's status first, the buyer's step only while it is pending. */
export function viewKey(model: Pick<Model, 'status' | 'step'>): ViewKey {
  const { status } = model.status
  if (status !== 'pending') return status
  const { step } = model
  return step.name === 'wallet' ? `wallet-${step.screen}` : step.name
}

export function remainingMs(model: Pick<Model, 'status' | 'clockOffsetMs' | 'now'>): number {
  return Date.parse(model.status.expiresAt) - (model.now + model.clockOffsetMs)
}

export function clockOffset(status: CheckoutStatus, pageNow: number): number {
  return Date.parse(status.serverTime) - pageNow
}
