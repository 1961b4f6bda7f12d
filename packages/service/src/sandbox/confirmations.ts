import type { FastifyBaseLogger } from 'fastify'
import type { Queryable } from '../db/port.ts'
import type { Clock } from '../core/clock.ts'
import { periodic } from '../core/periodic.ts'
import { ApiError } from '../errors.ts'
import type { PaymentRecord, PaymentService, Transition } from '../payments/index.ts'
import { confirmedSettlement } from './chain-data.ts'

/** Confirmations the slow test wallet has promised, kept in the database so a restart keeps them. */
export function sandboxConfirmations(db: Queryable) {
  return {
    /** `dueAt` null holds the confirmation: it is never due, only `take` delivers it. */
    async schedule(paymentId: string, dueAt: Date | null) {
      await db.query(
        `INSERT INTO sandbox_confirmations (payment_id, due_at) VALUES ($1, $2)
         ON CONFLICT (payment_id) DO UPDATE SET due_at = EXCLUDED.due_at`,
        [paymentId, dueAt],
      )
    },
    async due(now: Date, limit: number): Promise<string[]> {
      const rows = await db.query<{ payment_id: string }>(
        'SELECT payment_id FROM sandbox_confirmations WHERE due_at <= $1 ORDER BY due_at LIMIT $2',
        [now, limit],
      )
      return rows.map((row) => row.payment_id)
    },
    /**
     * Removes the payment's promised confirmation and says whether there was one. Of two instances taking
     * the same one, the second waits for the first's transaction and then finds nothing.
     */
    async take(paymentId: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM sandbox_confirmations WHERE payment_id = $1 RETURNING payment_id', [paymentId])
      return rows.length === 1
    },
  }
}

export type SandboxConfirmations = ReturnType<typeof sandboxConfirmations>

/** The transaction confirmed: processing → succeeded, with the fee and the merchant's settlement. */
export function confirm(deps: { transition: Transition; clock: Clock }, payment: PaymentRecord): Promise<PaymentRecord> {
  if (!payment.paid) throw new Error(`payment ${payment.id} is processing without transaction details`)
  return deps.transition({
    payment,
    to: 'succeeded',
    reason: 'transaction_confirmed',
    paid: confirmedSettlement(payment.paid, payment.amountMinor, deps.clock.now()),
  })
}

/**
 * Delivers the payment's promised confirmation now, due or held: the payment succeeds and the promise is
 * gone, in one transaction. Undefined when none was promised, or when the payment has moved on meanwhile
 * (the promise is then dropped: there is nothing left to confirm).
 */
export async function deliverConfirmation(
  deps: { payments: PaymentService; clock: Clock },
  paymentId: string,
): Promise<PaymentRecord | undefined> {
  const payment = await deps.payments.readForCheckout(paymentId)
  return deps.payments.atomically(async ({ transition, tx }) => {
    if (!(await sandboxConfirmations(tx).take(paymentId))) return undefined
    if (payment?.status !== 'processing') return undefined
    try {
      return await confirm({ transition, clock: deps.clock }, payment)
    } catch (error) {
      if (error instanceof ApiError && error.code === 'invalid_transition') return undefined
      throw error
    }
  })
}

/** Delivers due confirmations; a held one waits for `deliverConfirmation`. */
export function sandboxConfirmer(deps: {
  confirmations: SandboxConfirmations
  payments: PaymentService
  clock: Clock
  intervalMs: number
  log: FastifyBaseLogger
}) {
  async function deliverDue(): Promise<number> {
    let delivered = 0
    for (const id of await deps.confirmations.due(deps.clock.now(), 100)) {
      if (await deliverConfirmation(deps, id)) delivered++
    }
    return delivered
  }

  const timer = periodic({
    intervalMs: deps.intervalMs,
    run: async () => {
      await deliverDue()
    },
    name: 'sandbox confirmations',
    log: deps.log,
  })

  return { deliverDue, start: timer.start, stop: timer.stop }
}
