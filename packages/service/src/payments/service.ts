import { parseFiatUnit, resolveCheckoutRedirects, type CreatePaymentRequest, type MerchantPaymentStatus } from '@till/contract'
import type { Database, Queryable } from '../db/port.ts'
import type { Clock } from '../core/clock.ts'
import { newPaymentId, PAYMENT_ID_PATTERN } from '../core/ids.ts'
import { ApiError, paymentNotFound } from '../errors.ts'
import type { PaidDetails, PaymentRecord } from './record.ts'
import { type PaymentObserver, paymentStore, type PaymentStore, UNOBSERVED } from './store.ts'
import { statusCache, type CachedStatus, type StatusCache } from './status-cache.ts'

export type PaymentPolicy = {
  /** How long a buyer has to pay before a pending payment expires. */
  paymentTtlSeconds: number
  /** Loopback return URLs count as valid HTTPS targets only in sandbox mode. */
  allowLoopbackRedirects: boolean
}

export type CreateResult = { payment: PaymentRecord; replayed: boolean }

export type TransitionInput = {
  payment: PaymentRecord
  to: MerchantPaymentStatus
  reason: string
  paid?: PaidDetails
}

/** One step along the lifecycle: see `PaymentService['transition']`. */
export type Transition = (input: TransitionInput) => Promise<PaymentRecord>

/** What `atomically` hands its work: steps and statements that commit together or not at all. */
export type AtomicUnit = { transition: Transition; tx: Queryable }

// A create only loops when the live payment it collided with ended in between; twice is already rare.
const CREATE_ATTEMPTS = 4

const cacheEntry = (payment: PaymentRecord): CachedStatus => ({
  id: payment.id,
  merchantId: payment.merchantId,
  partnerId: payment.partnerId,
  status: payment.status,
  expiresAt: payment.expiresAt.getTime(),
})

export function paymentService(deps: {
  db: Database
  clock: Clock
  policy: PaymentPolicy
  cache?: StatusCache
  observe?: PaymentObserver
}) {
  const { db, clock, policy } = deps
  const observe = deps.observe ?? UNOBSERVED
  const store = paymentStore(db, observe)
  // Without a cache that sees every writer's changes, only terminal statuses (which never change) are kept.
  const cache = deps.cache ?? statusCache()
  const announce = (payment: PaymentRecord) => cache.changed(cacheEntry(payment))

  /**
   * Expires the payment now if its deadline has passed and nobody has yet; returns the fresh record.
   * `changed` hears of the expiry once it is committed (in a transaction, that is only after it).
   */
  async function settleDeadline(payment: PaymentRecord, on = store, changed = announce): Promise<PaymentRecord> {
    if (payment.status !== 'pending' || payment.expiresAt > clock.now()) return payment
    await on.expireDue(clock.now(), 1, payment.id)
    const fresh = (await on.findById(payment.id)) ?? payment
    changed(fresh)
    return fresh
  }

  async function step(on: PaymentStore, input: TransitionInput, changed: (payment: PaymentRecord) => void): Promise<PaymentRecord> {
    const { payment } = input
    const moved = await on.transition({
      id: payment.id,
      to: input.to,
      reason: input.reason,
      now: clock.now(),
      ...(input.paid ? { paid: input.paid } : {}),
    })
    const fresh = await settleDeadline((await on.findById(payment.id)) ?? payment, on, changed)
    changed(fresh)
    if (!moved) {
      throw new ApiError('invalid_transition', `Payment ${payment.id} is ${fresh.status}; it cannot become ${input.to}.`, {
        details: { status: fresh.status },
      })
    }
    return fresh
  }

  /** The status a read reports: from the cache when it can be trusted, else from the database. */
  async function currentStatus(id: string): Promise<CachedStatus | undefined> {
    // A string that cannot be a payment id is not looked up at all.
    if (!PAYMENT_ID_PATTERN.test(id)) return undefined
    const now = clock.now().getTime()
    const cached = cache.get(id)
    if (cached && !(cached.status === 'pending' && cached.expiresAt <= now)) return cached
    const since = cache.generation()
    let found = await store.findStatus(id)
    if (found?.status === 'pending' && found.expiresAt <= now) {
      const moved = await store.expireDue(clock.now(), 1, id)
      found = await store.findStatus(id)
      // This read made the change: announce it like any other, so waiting checkout pages hear of it.
      if (found && moved.length > 0) {
        cache.changed(found)
        return found
      }
    }
    if (found) cache.remember(found, since)
    return found
  }

  return {
    /**
     * Creates a payment, or returns the merchant's live payment for the same referenceId and amount.
     * A referenceId whose payment succeeded is refused (no double charge); after failed or expired a new
     * payment may be created. See docs/decisions/0003-reference-id-idempotency.md.
     */
    async create(input: { partnerId: string; merchantId: string; request: CreatePaymentRequest }): Promise<CreateResult> {
      const { request } = input
      const currency = parseFiatUnit(request.amount.unit)
      if (!currency) throw new ApiError('params_validation', `Unknown currency unit ${request.amount.unit}.`)
      const amountMinor = BigInt(request.amount.value)
      // Redirect needs both URLs valid (spec 4.2); otherwise the payment is created without it.
      const redirect = resolveCheckoutRedirects(request.checkout, { allowLoopback: policy.allowLoopbackRedirects })

      for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
        const now = clock.now()
        const payment = {
          id: newPaymentId(),
          merchantId: input.merchantId,
          partnerId: input.partnerId,
          referenceId: request.referenceId,
          currency: currency.code,
          amountMinor,
          successUrl: redirect?.successUrl ?? null,
          errorUrl: redirect?.errorUrl ?? null,
          redirectEnabled: redirect !== null,
          createdAt: now,
          expiresAt: new Date(now.getTime() + policy.paymentTtlSeconds * 1000),
        }
        if (await store.insertUnlessLive(payment)) {
          const created: PaymentRecord = { ...payment, status: 'pending', updatedAt: now, paid: null }
          cache.changed(cacheEntry(created))
          return { payment: created, replayed: false }
        }
        const found = await store.findLiveByReference(input.merchantId, request.referenceId)
        if (!found) continue // it ended between our insert and our read: try the insert again
        const existing = await settleDeadline(found)
        if (existing.status === 'expired') continue
        if (existing.status === 'succeeded') {
          throw new ApiError(
            'reference_already_paid',
            `A payment for referenceId "${request.referenceId}" already succeeded; it cannot be paid twice.`,
            { details: { paymentId: existing.id } },
          )
        }
        if (existing.currency !== currency.code || existing.amountMinor !== amountMinor) {
          throw new ApiError(
            'reference_in_use',
            `referenceId "${request.referenceId}" belongs to an open payment of another amount ` +
              `(${existing.amountMinor} iso4217/${existing.currency}); wait until it ends or use another referenceId.`,
            { details: { paymentId: existing.id } },
          )
        }
        return { payment: existing, replayed: true }
      }
      throw new ApiError('service_unavailable', 'The payment could not be created; retry the same request.')
    },

    /** The status of a payment of this merchant of this partner; another's payment is never revealed. */
    async statusForMerchant(id: string, merchantId: string, partnerId: string): Promise<CachedStatus | undefined> {
      const found = await currentStatus(id)
      return found && found.merchantId === merchantId && found.partnerId === partnerId ? found : undefined
    },

    async statusForPartner(id: string, partnerId: string): Promise<CachedStatus | undefined> {
      const found = await currentStatus(id)
      return found && found.partnerId === partnerId ? found : undefined
    },

    /**
     * The status of any payment, for its checkout page: there the payment id (and the checkout token
     * bound to it) is the credential, not an API key.
     */
    async statusForCheckout(id: string): Promise<CachedStatus | undefined> {
      return currentStatus(id)
    },

    /** The whole record of any payment, for its checkout page; a deadline that has passed is applied first. */
    async readForCheckout(id: string): Promise<PaymentRecord | undefined> {
      const payment = PAYMENT_ID_PATTERN.test(id) ? await store.findById(id) : undefined
      return payment && settleDeadline(payment)
    },

    /** A payment of this merchant of this partner, or undefined: another's payment is never revealed. */
    async readForMerchant(id: string, merchantId: string, partnerId: string): Promise<PaymentRecord | undefined> {
      const payment = PAYMENT_ID_PATTERN.test(id) ? await store.findById(id) : undefined
      if (!payment || payment.merchantId !== merchantId || payment.partnerId !== partnerId) return undefined
      return settleDeadline(payment)
    },

    /**
     * One step along the lifecycle. Refused (409) when the rule or the current state does not allow it;
     * a pending payment past its deadline is expired instead and the refusal says so. The same commit
     * writes the change's webhook event and a delivery per endpoint of the merchant: the trigger
     * payments_webhook_event (migrations/0008_webhooks.sql) does, for every path that changes a status
     * (see webhook-outbox.int.test.ts); the dispatcher (webhooks/) sends them.
     */
    transition(input: TransitionInput): Promise<PaymentRecord> {
      return step(store, input, announce)
    },

    /**
     * Runs `work` in one database transaction: its transitions and its own statements on `tx` are kept
     * together or not at all, so a crash between two of them cannot leave a payment half moved (processing
     * with no confirmation to come). Readers hear of the changes only once they are committed.
     */
    async atomically<T>(work: (unit: AtomicUnit) => Promise<T>): Promise<T> {
      const committed: PaymentRecord[] = []
      // What the transaction's statements did is told only once it commits: a rollback did nothing.
      const observed: Array<() => void> = []
      const result = await db.transaction((tx) => {
        const on = paymentStore(tx, {
          created: () => observed.push(() => observe.created()),
          moved: (change, count) => observed.push(() => observe.moved(change, count)),
        })
        return work({ tx, transition: (input) => step(on, input, (payment) => committed.push(payment)) })
      })
      for (const tell of observed) tell()
      committed.forEach(announce)
      return result
    },

    /**
     * The merchant calls off a payment (issue 24): only a pending one, which by construction no transaction
     * pays (a transaction is bound and its payment moved to processing in one commit, evm/claim.ts). The
     * compare-and-set takes the payment's row lock, as a buyer's claim does, so of a cancel and a claim racing
     * exactly one wins. A cancelled payment is answered again; any other status is refused, naming it.
     */
    async cancel(id: string, merchantId: string, partnerId: string): Promise<PaymentRecord> {
      const payment = PAYMENT_ID_PATTERN.test(id) ? await store.findById(id) : undefined
      if (!payment || payment.merchantId !== merchantId || payment.partnerId !== partnerId) throw paymentNotFound(id)
      let current = await settleDeadline(payment)
      if (current.status === 'pending') {
        await store.transition({ id, to: 'cancelled', from: ['pending'], reason: 'merchant_cancelled', now: clock.now() })
        current = await settleDeadline((await store.findById(id)) ?? current)
        announce(current)
      }
      if (current.status === 'cancelled') return current
      throw new ApiError(
        'payment_not_cancellable',
        `Payment ${id} is ${current.status}; only a pending payment that no transaction pays can be cancelled.`,
        { details: { status: current.status } },
      )
    },

    /**
     * Sandbox: brings a pending payment's deadline forward to now, then lets it end the way any payment
     * past its deadline does (the read path expires it, as the sweeper would). Unlike "expire now", which
     * forces the status, this exercises the deadline itself. Refused (409) unless the payment is pending.
     */
    async reachDeadline(payment: PaymentRecord): Promise<PaymentRecord> {
      const moved = await store.moveDeadline(payment.id, clock.now())
      const fresh = await settleDeadline((await store.findById(payment.id)) ?? payment)
      if (!moved) {
        throw new ApiError(
          'invalid_transition',
          `Payment ${payment.id} is ${fresh.status}; only a pending payment has a deadline to reach.`,
          {
            details: { status: fresh.status },
          },
        )
      }
      return fresh
    },
  }
}

export type PaymentService = ReturnType<typeof paymentService>
