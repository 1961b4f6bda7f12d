import { Payment, Refund, type RefundOutcome, type SimulateOutcome } from '@till/contract'
import type { RequestOptions } from '../config.ts'
import { checkedPaymentId, checkedRefundId, endpoint } from '../params.ts'
import type { RequestCore } from '../request.ts'
import { type TillResponse, withLastResponse } from '../response.ts'

/**
 * The sandbox's test hooks (`till serve --sandbox`, sandbox API keys only; a live key gets
 * `TillNotFoundError`). Each answers with the payment as the partner listing shows it (spec 2.1).
 * They are not retried: a repeated move finds the payment already moved (`TillConflictError`
 * `invalid_transition`), which is an answer a test should see.
 */
export class Sandbox {
  readonly #core: RequestCore

  constructor(core: RequestCore) {
    this.#core = core
  }

  /**
   * Given a refund id (`rfd_…`), plays the merchant's wallet paying the refund
   * (`POST /v1/sandbox/refunds/{id}/simulate`): `succeeded`, paid and confirmed; `failed`, its transaction
   * reverted. A refund still awaiting its destination gets a test account first. Answers the refund.
   */
  simulate(refundId: `rfd_${string}`, outcome: RefundOutcome, options?: RequestOptions): Promise<TillResponse<Refund>>
  /**
   * Moves the payment to `outcome` along legal transitions, as a real payment would go
   * (`POST /v1/sandbox/payments/{id}/simulate`): pending → succeeded passes through processing.
   */
  simulate(paymentId: string, outcome: SimulateOutcome, options?: RequestOptions): Promise<TillResponse<Payment>>
  simulate(id: string, outcome: SimulateOutcome | RefundOutcome, options?: RequestOptions): Promise<TillResponse<Payment | Refund>> {
    if (id.startsWith('rfd_')) return this.#simulateRefund(id, outcome as RefundOutcome, options)
    return this.#move(id, 'Sandbox_simulate', { outcome }, options)
  }

  async #simulateRefund(refundId: string, outcome: RefundOutcome, options?: RequestOptions): Promise<TillResponse<Refund>> {
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('Sandbox_simulateRefund', { refundId: checkedRefundId(refundId) }),
        body: { outcome },
        schema: Refund,
        idempotent: false,
        merchantScoped: true,
      },
      options,
    )
    return withLastResponse(data, meta)
  }

  /**
   * "The network confirms now": delivers the slow test wallet's pending confirmation at once
   * (`POST /v1/sandbox/payments/{id}/confirm`), held or not yet due. `invalid_transition` when none is pending.
   */
  confirm(paymentId: string, options?: RequestOptions): Promise<TillResponse<Payment>> {
    return this.#move(paymentId, 'Sandbox_confirm', undefined, options)
  }

  /**
   * The pending payment's deadline becomes now (`POST /v1/sandbox/payments/{id}/reach-deadline`): it
   * expires by the deadline rule, as if its time had run out, without waiting for it.
   */
  reachDeadline(paymentId: string, options?: RequestOptions): Promise<TillResponse<Payment>> {
    return this.#move(paymentId, 'Sandbox_reachDeadline', undefined, options)
  }

  async #move(
    paymentId: string,
    operation: 'Sandbox_simulate' | 'Sandbox_confirm' | 'Sandbox_reachDeadline',
    body: unknown,
    options?: RequestOptions,
  ): Promise<TillResponse<Payment>> {
    const { data, meta } = await this.#core.request(
      {
        ...endpoint(operation, { paymentId: checkedPaymentId(paymentId) }),
        ...(body === undefined ? {} : { body }),
        schema: Payment,
        idempotent: false,
        merchantScoped: true,
      },
      options,
    )
    return withLastResponse(data, meta)
  }
}
