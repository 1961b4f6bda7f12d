import { Readable } from 'node:stream'
import { Caip10, IDEMPOTENCY_KEY_HEADER, isFinalStatus, type Payment, PositiveMinorUnits, type RawQuery } from '@till/contract'
import { z } from 'zod'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError, parseOrThrow, paymentNotFound } from '../errors.ts'
import { header } from '../http/context.ts'
import { idempotencyKeyOf } from '../http/idempotency.ts'
import type { PaymentRecord, PaymentService } from '../payments/index.ts'
import type { ListingSearch } from '../listing/index.ts'
import type { RefundService } from '../refunds/index.ts'
import type { DashboardUser } from './people.ts'
import { byUser } from './audit-entry.ts'
import { requireRole } from './routes.ts'
import type { DashboardPeople } from './service.ts'
import { csvHeader, csvRow } from './csv.ts'
import { paidOption } from './paid-option.ts'
import { paymentTimeline } from './timeline.ts'
import type { Database } from '../db/port.ts'
import { webhookDeliveryStore } from '../webhooks/index.ts'
import type { Clock } from '../core/clock.ts'
import type { SessionGuards } from './guards.ts'

type ListingInput = { partnerId: string; merchantId: string | null; query: RawQuery; search?: ListingSearch }
/** The listing the dashboard shows, scoped by who is signed in (the listing area's own service), and all of it. */
export type DashboardListing = ((input: ListingInput) => Promise<unknown>) & {
  every: (input: ListingInput) => AsyncIterable<Payment>
  daily: (input: ListingInput) => Promise<unknown>
}

export type DashboardPaymentDeps = {
  db: Database
  people: DashboardPeople
  payments: PaymentService
  refunds: RefundService
  listing: DashboardListing
  guards: SessionGuards
  clock: Clock
  /** The network's explorer link for a transaction (`explorerTxUrl` of the network config), or null. */
  explorerTxUrl: (network: string, hash: string) => string | null
}

// POST /v1/refunds's fields that the payment's page asks for; the payment is the page's.
const RefundForm = z.strictObject({
  amount: PositiveMinorUnits.optional(),
  reason: z.string().trim().min(1).max(500).optional(),
  destination: Caip10.optional(),
})

/**
 * The search box's one field (`q`), read as what it looks like: a payment id, a transaction hash, a buyer's
 * address (alone or CAIP-10), or else a piece of a referenceId, which the listing checks as its own filter.
 */
export function searched(raw: RawQuery): { query: RawQuery; search?: ListingSearch } {
  const { q, ...query } = raw
  const text = typeof q === 'string' ? q.trim() : ''
  if (text === '') return { query }
  if (/^pay_[0-9a-hjkmnp-tv-z]{32}$/.test(text)) return { query, search: { kind: 'payment', paymentId: text } }
  if (/^0x[0-9a-fA-F]{64}$/.test(text)) return { query, search: { kind: 'transaction', hash: text } }
  const address = /^(?:eip155:[0-9]+:)?(0x[0-9a-fA-F]{40})$/.exec(text)?.[1]
  if (address) return { query, search: { kind: 'buyer', address } }
  return { query: { ...query, referenceId: text } }
}

/**
 * The Payments page's data and a payment's page (issue 25, points 5 and 6): the listing with its stats, a
 * payment with its timeline, and the actions an admin or owner may take on it, recorded in the audit log.
 */
export function dashboardPaymentRoutes(app: FastifyInstance, deps: DashboardPaymentDeps) {
  /** A payment the user may see: the partner's, and the user's merchant's when they are limited to one. */
  async function visible(user: DashboardUser, id: string): Promise<PaymentRecord> {
    const payment = await deps.payments.readForCheckout(id)
    const mine = payment && payment.partnerId === user.partnerId && (user.merchantId === null || payment.merchantId === user.merchantId)
    if (!payment || !mine) throw paymentNotFound(id)
    return payment
  }

  const audit = (
    user: DashboardUser,
    request: FastifyRequest,
    action: 'payment_cancelled' | 'refund_created' | 'webhook_redelivered',
    target: string,
  ) => deps.people.audit.record(byUser(user, request, { action, target, at: deps.clock.now() }))

  app.get('/dashboard/api/payments', async (request, reply) => {
    const { user } = await deps.guards.reading(request)
    const page = await deps.listing({ partnerId: user.partnerId, merchantId: user.merchantId, ...searched(request.query as RawQuery) })
    return reply.header('Cache-Control', 'no-store').send(page)
  })

  app.get('/dashboard/api/payments/daily', async (request, reply) => {
    const { user } = await deps.guards.reading(request)
    const days = await deps.listing.daily({
      partnerId: user.partnerId,
      merchantId: user.merchantId,
      ...searched(request.query as RawQuery),
    })
    return reply.header('Cache-Control', 'no-store').send({ data: days })
  })

  // The whole filtered set, streamed: one batch of rows in memory at a time, however many there are.
  app.get('/dashboard/api/payments/export.csv', async (request, reply) => {
    const { user } = await deps.guards.reading(request)
    const rows = deps.listing.every({ partnerId: user.partnerId, merchantId: user.merchantId, ...searched(request.query as RawQuery) })
    const iterator = rows[Symbol.asyncIterator]()
    // Read before answering: a bad filter is still a 400 in the spec's shape, not a broken download.
    const first = await iterator.next()
    async function* lines() {
      yield csvHeader()
      for (let next = first; !next.done; next = await iterator.next()) yield csvRow(next.value)
    }
    const day = deps.clock.now().toISOString().slice(0, 10)
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="payments-${day}.csv"`)
      .header('Cache-Control', 'no-store')
      .send(Readable.from(lines()))
  })

  app.get<{ Params: { paymentId: string } }>('/dashboard/api/payments/:paymentId', async (request, reply) => {
    const { user } = await deps.guards.reading(request)
    const payment = await visible(user, request.params.paymentId)
    const timeline = await paymentTimeline(deps.db, payment.id)
    const acts = user.role !== 'viewer'
    return reply.header('Cache-Control', 'no-store').send({
      paymentId: payment.id,
      merchantId: payment.merchantId,
      referenceId: payment.referenceId,
      status: payment.status,
      isFinal: isFinalStatus(payment.status),
      amount: { currency: payment.currency, value: payment.amountMinor.toString() },
      createdAt: payment.createdAt.toISOString(),
      expiresAt: payment.expiresAt.toISOString(),
      paid: paidOption(payment, timeline, deps.explorerTxUrl),
      timeline: timeline.map((entry) =>
        entry.kind === 'transaction' ? { ...entry, explorerUrl: deps.explorerTxUrl(entry.network, entry.hash) } : entry,
      ),
      actions: { cancel: acts && payment.status === 'pending', refund: acts && payment.status === 'succeeded', redeliver: acts },
    })
  })

  app.post<{ Params: { paymentId: string } }>('/dashboard/api/payments/:paymentId/cancel', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    requireRole(user, 'admin')
    const payment = await visible(user, request.params.paymentId)
    const cancelled = await deps.payments.cancel(payment.id, payment.merchantId, payment.partnerId)
    await audit(user, request, 'payment_cancelled', payment.id)
    return reply.send({ paymentId: cancelled.id, status: cancelled.status })
  })

  // "Redeliver" on a webhook attempt of the payment's timeline: its delivery is sent again now.
  app.post<{ Params: { paymentId: string; deliveryId: string } }>(
    '/dashboard/api/payments/:paymentId/deliveries/:deliveryId/redeliver',
    async (request, reply) => {
      const { user } = await deps.guards.changing(request)
      requireRole(user, 'admin')
      const payment = await visible(user, request.params.paymentId)
      const { deliveryId } = request.params
      if (!(await webhookDeliveryStore(deps.db).redeliverForPayment(payment.id, deliveryId, deps.clock.now()))) {
        throw new ApiError('not_found', `No webhook delivery ${deliveryId} of payment ${payment.id}.`)
      }
      await audit(user, request, 'webhook_redelivered', deliveryId)
      return reply.code(202).send({ deliveryId, status: 'pending' })
    },
  )

  app.post<{ Params: { paymentId: string } }>('/dashboard/api/payments/:paymentId/refunds', async (request, reply) => {
    const { user } = await deps.guards.changing(request)
    requireRole(user, 'admin')
    const idempotencyKey = idempotencyKeyOf(header(request, IDEMPOTENCY_KEY_HEADER))
    const form = parseOrThrow(RefundForm, request.body ?? {}, 'body')
    const payment = await visible(user, request.params.paymentId)
    const answer = await deps.refunds.create({
      partnerId: payment.partnerId,
      merchantId: payment.merchantId,
      request: { ...form, paymentId: payment.id },
      idempotencyKey: `dashboard:${user.id}:${idempotencyKey}`,
    })
    if (!answer.replayed) await audit(user, request, 'refund_created', answer.body.id)
    return reply.code(answer.status).send(answer.body)
  })
}
