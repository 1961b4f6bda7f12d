import type { CheckoutSession, CheckoutStatus, CheckoutWallet, PaymentOption } from '@till/contract'
import { STATUS_PROGRESS } from '@till/contract/status-order'

/** What the page knows and shows; views are pure functions of it. */

export type OptionsLoad = { state: 'loading' } | { state: 'ready'; options: PaymentOption[]; selected: string | null } | { state: 'error' }

/** Where the buyer is while the payment is pending. */
export type Step =
  | { name: 'connect' }
  | { name: 'choose'; wallet: CheckoutWallet; address: string; options: OptionsLoad }
  | { name: 'signing'; wallet: CheckoutWallet; address: string; option: PaymentOption }

export type Notice = { kind: 'network' | 'rateLimited' | 'conflict' | 'unknown' | 'optionsFailed' }

export type Model = {
  session: CheckoutSession
  status: CheckoutStatus
  /** Server clock minus page clock, so deadlines are counted on the server's time. */
  clockOffsetMs: number
  step: Step
  notice: Notice | null
  /** Page-clock time at which the redirect happens, once the countdown runs. */
  redirectAt: number | null
  /** Page-clock time of the last render that shows a timer. */
  now: number
}

/** The newer of two observations of the same payment; an ended payment keeps the end it was first seen with. */
export function newer(current: CheckoutStatus, next: CheckoutStatus): CheckoutStatus {
  // An answer that arrives late must not move the page back.
  if (STATUS_PROGRESS[next.status] > STATUS_PROGRESS[current.status]) return next
  return next.status === current.status ? next : current
}

export type FinalView = 'succeeded' | 'failed' | 'expired'
export type ViewKey = 'connect' | 'choose' | 'signing' | 'processing' | FinalView

export const isFinalView = (key: ViewKey): key is FinalView => key === 'succeeded' || key === 'failed' || key === 'expired'

/** Which screen the model shows: the payment's status first, the buyer's step only while it is pending. */
export function viewKey(model: Pick<Model, 'status' | 'step'>): ViewKey {
  const { status } = model.status
  if (status !== 'pending') return status
  return model.step.name
}

export function remainingMs(model: Pick<Model, 'status' | 'clockOffsetMs' | 'now'>): number {
  return Date.parse(model.status.expiresAt) - (model.now + model.clockOffsetMs)
}

export function clockOffset(status: CheckoutStatus, pageNow: number): number {
  return Date.parse(status.serverTime) - pageNow
}
