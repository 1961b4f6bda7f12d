import { createHash } from 'node:crypto'
import { type CreateRefundRequest, REFUND_LINK_DAYS, type Refund, type RefundStatus } from '@till/contract'
import type { Clock } from '../core/clock.ts'
import { randomToken } from '../core/ids.ts'
import type { Database, Queryable } from '../db/port.ts'
import { ApiError, paymentNotFound } from '../errors.ts'
import { unappliedTransfers } from '../evm/index.ts'
import type { IdempotencyKeys } from '../http/idempotency.ts'
import { paymentStore } from '../payments/index.ts'
import { checkDestination } from './destination.ts'
import type { RefundLinks } from './links.ts'
import type { RefundRail, RefundRails } from './rail.ts'
import type { RefundRailName, RefundRecord } from './record.ts'
import { type NewRefund, type RefundChange, refundStore } from './store.ts'
import { refundView } from './views.ts'
import { paymentSource, type RefundSource } from './sources.ts'

export const newRefundId = () => `rfd_${randomToken(20)}`
export const REFUND_ID_PATTERN = /^rfd_[0-9a-hjkmnp-tv-z]{32}$/

/** 16 bytes the refund's transfer carries after its arguments, as a payment's carries its own (evm/reference.ts). */
export const refundReference = (refundId: string): `0x${string}` =>
  `0x${createHash('sha256').update(`till-refund:${refundId}`).digest('hex').slice(0, 32)}`

const DAY_MS = 24 * 60 * 60 * 1000

export const refundNotFound = (id: string) => new ApiError('refund_not_found', `No refund ${id} for this merchant.`)

export type RefundServiceDeps = {
  db: Database
  clock: Clock
  links: RefundLinks
  idempotency: IdempotencyKeys
  refundRails: RefundRails
}

/** Refunds (issue 24, point 2): made by the merchant's API, claimed by the buyer, paid by the merchant's wallet. */
export function refundService(deps: RefundServiceDeps) {
  const { db, clock, links } = deps
  const store = refundStore(db)
  const view = (refund: RefundRecord): Refund => refundView(refund, links, clock.now())

  /** Which rail pays a refund in this token on this network: the one that knows it (an EVM network's first). */
  function railOf(network: string, tokenUnit: string): RefundRailName | undefined {
    if (deps.refundRails.evm?.token(network, tokenUnit)) return 'evm'
    return deps.refundRails.sandbox?.token(network, tokenUnit) ? 'sandbox' : undefined
  }

  function railNamed(name: RefundRailName): RefundRail {
    const rail = deps.refundRails[name]
    if (!rail) throw new ApiError('payment_not_refundable', `Refunds on the ${name} rail are not available on this server.`)
    return rail
  }

  /** The merchant's refund, or 404: another merchant's is never revealed. */
  async function own(id: string, merchantId: string, partnerId: string): Promise<RefundRecord> {
    const refund = REFUND_ID_PATTERN.test(id) ? await store.findById(id) : undefined
    if (!refund || refund.merchantId !== merchantId || refund.partnerId !== partnerId) throw refundNotFound(id)
    return refund
  }

  async function unappliedSource(tx: Queryable, merchantId: string, id: string): Promise<RefundSource> {
    const slash = id.indexOf('/')
    const network = id.slice(0, slash)
    const hash = id.slice(slash + 1)
    const transfer = slash > 0 ? await unappliedTransfers(tx).find(merchantId, network, hash) : undefined
    if (!transfer) throw new ApiError('unapplied_transfer_not_found', `No unapplied transfer ${id} for this merchant.`)
    const unit = `${network}/erc20:${transfer.token}`
    const token = deps.refundRails.evm?.token(network, unit)
    if (!token) throw new ApiError('payment_not_refundable', `The token of ${id} is no longer configured; refund it outside Till.`)
    return {
      paymentId: transfer.paymentId,
      unapplied: { network, txHash: transfer.txHash },
      rail: 'evm',
      fiat: null,
      network,
      token: { unit, ...token },
      tokenAmount: transfer.amount,
    }
  }

  /** A refund moved as asked (from one of `from`), or the refusal its current status earns. */
  async function moved(
    refund: RefundRecord,
    to: RefundStatus,
    change: RefundChange | undefined,
    refuse: (status: RefundStatus) => ApiError,
    from?: readonly RefundStatus[],
  ): Promise<RefundRecord> {
    const after = await store.move({ id: refund.id, to, now: clock.now(), ...(change ? { change } : {}), ...(from ? { from } : {}) })
    if (after) return after
    const current = (await store.findById(refund.id)) ?? refund
    throw refuse(current.status)
  }

  const notPayable = (status: RefundStatus) =>
    new ApiError('refund_not_payable', `This refund is ${status}: it is not waiting to be paid.`, { details: { status } })

  return {
    view,

    /** Creates a refund under the request's Idempotency-Key: a retry gets the first answer again. */
    async create(input: { partnerId: string; merchantId: string; request: CreateRefundRequest; idempotencyKey: string }) {
      const { request } = input
      return deps.idempotency.run<undefined, Refund>({
        partnerId: input.partnerId,
        key: input.idempotencyKey,
        operation: `refunds.create:${input.merchantId}`,
        request,
        prepare: async () => undefined,
        work: async (tx) => {
          const source = request.paymentId
            ? await paymentSource(tx, { ...input, paymentId: request.paymentId, amount: request.amount, railOf })
            : await unappliedSource(tx, input.merchantId, request.unappliedTransferId ?? '')
          railNamed(source.rail)
          const id = newRefundId()
          const now = clock.now()
          const destination = request.destination ? checkDestination(request.destination, source.network, 'destination') : null
          const refund: NewRefund = {
            ...source,
            id,
            partnerId: input.partnerId,
            merchantId: input.merchantId,
            status: destination ? 'ready' : 'awaiting_destination',
            reason: request.reason ?? null,
            destination,
            reference: refundReference(id),
            claimExpiresAt: new Date(now.getTime() + REFUND_LINK_DAYS * DAY_MS),
            payExpiresAt: new Date(now.getTime() + REFUND_LINK_DAYS * DAY_MS),
            createdAt: now,
          }
          const created = await insertHeld(tx, refund)
          return { status: 201, body: view(created) }
        },
      })
    },

    async get(id: string, merchantId: string, partnerId: string): Promise<Refund> {
      return view(await own(id, merchantId, partnerId))
    },

    /** The refunds of one of the merchant's payments, or of one of its unapplied transfers, oldest first. */
    async list(of: { paymentId: string } | { unappliedTransferId: string }, merchantId: string, partnerId: string): Promise<Refund[]> {
      if ('paymentId' in of) {
        const payment = await paymentStore(db).findById(of.paymentId)
        if (!payment || payment.merchantId !== merchantId || payment.partnerId !== partnerId) throw paymentNotFound(of.paymentId)
        return (await store.listByPayment(payment.id)).map(view)
      }
      const transfer = await unappliedSource(db, merchantId, of.unappliedTransferId)
      const unapplied = transfer.unapplied
      if (!unapplied)
        throw new ApiError('unapplied_transfer_not_found', `No unapplied transfer ${of.unappliedTransferId} for this merchant.`)
      return (await store.listByUnapplied(unapplied.network, unapplied.txHash)).map(view)
    },

    /** Before its transaction is known; a cancelled refund is answered again. */
    async cancel(id: string, merchantId: string, partnerId: string): Promise<Refund> {
      const refund = await own(id, merchantId, partnerId)
      const after = refund.status === 'cancelled' ? refund : await store.move({ id, to: 'cancelled', now: clock.now() })
      const current = after ?? (await store.findById(id)) ?? refund
      if (current.status === 'cancelled') return view(current)
      throw new ApiError(
        'refund_not_cancellable',
        `This refund is ${current.status}; only one whose transaction is not known yet can be cancelled.`,
        { details: { status: current.status } },
      )
    },

    /** Paid outside Till: with a hash, checked and followed; without, recorded as succeeded on the merchant's word. */
    async markRefunded(id: string, merchantId: string, partnerId: string, transactionHash: string | undefined): Promise<Refund> {
      const refund = await own(id, merchantId, partnerId)
      // On the merchant's word only before a transaction is known: one being followed may still revert.
      if (transactionHash === undefined)
        return view(await moved(refund, 'succeeded', undefined, notPayable, ['awaiting_destination', 'ready']))
      if (refund.status !== 'awaiting_destination' && refund.status !== 'ready') throw notPayable(refund.status)
      return view(await submit(refund, transactionHash, 'merchant'))
    },

    /** The claim page: the buyer names where the refund goes. Single-use: only while it awaits a destination. */
    async claim(id: string, destination: string): Promise<RefundRecord> {
      const refund = await store.findById(id)
      if (!refund) throw refundNotFound(id)
      if (refund.status !== 'awaiting_destination') throw new ApiError('refund_link_used', 'This refund link was already used.')
      if (refund.claimExpiresAt <= clock.now()) throw new ApiError('refund_link_expired', 'This refund link has expired.')
      const account = checkDestination(destination, refund.network, 'destination')
      const payExpiresAt = new Date(clock.now().getTime() + REFUND_LINK_DAYS * DAY_MS)
      return moved(
        refund,
        'ready',
        { destination: account, payExpiresAt },
        () => new ApiError('refund_link_used', 'This refund link was already used.'),
      )
    },

    /** The pay page posted the hash of the transfer the merchant's wallet sent. */
    async payWithTransaction(id: string, transactionHash: string): Promise<RefundRecord> {
      const refund = await store.findById(id)
      if (!refund) throw refundNotFound(id)
      if (refund.status !== 'ready') throw notPayable(refund.status)
      if (refund.payExpiresAt <= clock.now()) throw new ApiError('refund_link_expired', 'This refund link has expired.')
      return submit(refund, transactionHash, 'reference')
    },

    links,

    /** The account that paid what the refund gives back: the claim page suggests it. */
    async whoPaid(refund: RefundRecord): Promise<string | null> {
      if (refund.unapplied) {
        const transfer = await unappliedTransfers(db).find(refund.merchantId, refund.unapplied.network, refund.unapplied.txHash)
        return transfer ? `${transfer.network}:${transfer.sender}` : null
      }
      const payment = refund.paymentId ? await paymentStore(db).findById(refund.paymentId) : undefined
      return payment?.paid?.buyerAccount ?? null
    },

    find: (id: string) => (REFUND_ID_PATTERN.test(id) ? store.findById(id) : Promise.resolve(undefined)),
    own,
  }

  /** Checks the transfer on the refund's rail and binds it: the refund is submitted, and followed from now. */
  async function submit(refund: RefundRecord, hash: string, matchedBy: 'reference' | 'merchant'): Promise<RefundRecord> {
    const rail = railNamed(refund.rail)
    const checked = await rail.checkTransaction(refund, hash, matchedBy)
    const destination = refund.destination ?? checked.to
    try {
      const after = await moved(
        refund,
        'submitted',
        { destination, transaction: { hash, from: checked.from, matchedBy: checked.matchedBy } },
        notPayable,
        // As checked: a buyer's claim that came meanwhile is not overwritten by the transfer's recipient.
        [refund.status],
      )
      rail.nudge()
      return after
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ApiError('transaction_already_used', 'This transaction already pays another refund; a transaction pays one refund.')
      }
      throw error
    }
  }

  /** Inserts in the create's transaction; the database's own rules refuse a sum past what was paid. */
  async function insertHeld(tx: Queryable, refund: NewRefund): Promise<RefundRecord> {
    try {
      return await refundStore(tx).insert(refund)
    } catch (error) {
      if (constraintOf(error) === 'refunds_within_payment') {
        throw new ApiError('refund_exceeds_payment', 'Its refunds would add up to more than was paid.', { details: { refundable: '0' } })
      }
      if (constraintOf(error) === 'refunds_unapplied_holding') {
        throw new ApiError('payment_not_refundable', 'This unapplied transfer is being refunded, or was, by another refund.', {
          details: { status: 'refunded' },
        })
      }
      throw error
    }
  }
}

const codeOf = (error: unknown) => (error as { code?: string } | null)?.code
const constraintOf = (error: unknown) => (error as { constraint?: string } | null)?.constraint
const isUniqueViolation = (error: unknown) => codeOf(error) === '23505'

export type RefundService = ReturnType<typeof refundService>
