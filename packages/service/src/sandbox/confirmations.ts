import type { FastifyBaseLogger } from 'fastify'
import type { Queryable } from '../db/port.ts'
import type { Clock } from '../domain/clock.ts'
import { periodic } from '../domain/periodic.ts'
import { ApiError } from '../errors.ts'
import type { PaymentService } from '../payments/service.ts'
import { confirm } from './test-wallets.ts'

/** Confirmations the slow test wallet has promised, kept in the database so a restart keeps them. */
export function sandboxConfirmations(db: Queryable) {
  return {
    async schedule(paymentId: string, dueAt: Date) {
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
    async remove(paymentId: string) {
      await db.query('DELETE FROM sandbox_confirmations WHERE payment_id = $1', [paymentId])
    },
  }
}

export type SandboxConfirmations = ReturnType<typeof sandboxConfirmations>

/**
 * Delivers due confirmations. Several instances may pick the same one: the compare-and-set transition
 * lets exactly one succeed, and the others find the payment already moved.
 */
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
      const payment = await deps.payments.readForCheckout(id)
      if (payment?.status === 'processing') {
        try {
          await confirm(deps, payment)
          delivered++
        } catch (error) {
          if (!(error instanceof ApiError && error.code === 'invalid_transition')) throw error
        }
      }
      await deps.confirmations.remove(id)
    }
    return delivered
  }

  const timer = periodic({
    intervalMs: deps.intervalMs,
    run: async () => {
      await deliverDue()
    },
    onError: (error) => deps.log.error({ err: error }, 'sandbox confirmations failed; retrying at the next tick'),
  })

  return { deliverDue, start: timer.start, stop: timer.stop }
}
