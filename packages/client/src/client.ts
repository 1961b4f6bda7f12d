import { checkApiKey, type ClientHooks, resolveConfig, type TillClientOptions } from './config.ts'
import { RequestCore } from './request.ts'
import { MerchantPayments } from './resources/merchant-payments.ts'
import { Merchants } from './resources/merchants.ts'
import { Payments } from './resources/payments.ts'
import { Refunds } from './resources/refunds.ts'
import { Sandbox } from './resources/sandbox.ts'
import { WebhookEndpoints } from './resources/webhook-endpoints.ts'

/**
 * The typed client of the Till API (the Pay service interface). One instance per API key; it keeps
 * connections alive, so create it once and `close()` it on shutdown.
 *
 * @example
 * const till = new TillClient({ baseUrl: 'http://127.0.0.1:4000', apiKey, merchantId });
 * const payment = await till.merchantPayments.create({
 *   amount: { unit: 'iso4217/EUR', value: '1999' },
 *   referenceId: 'order-1001',
 * });
 * // send the buyer to payment.gatewayUrl, then:
 * const { status, isFinal } = await till.merchantPayments.status(payment.paymentId);
 */
export class TillClient {
  /** The merchant checkout API (spec 4.2, 4.3). */
  readonly merchantPayments: MerchantPayments
  /** The partner's merchants: create and update (spec 4.5, 4.6). */
  readonly merchants: Merchants
  /** The partner's payment reads (spec 4.4). */
  readonly payments: Payments
  /** The merchant's refunds of payments and unapplied transfers (needs a `merchantId`). */
  readonly refunds: Refunds
  /** The merchant's webhook endpoints and their deliveries (needs a `merchantId`). */
  readonly webhookEndpoints: WebhookEndpoints
  /** The sandbox's test hooks: simulate an outcome, confirm a held transaction, reach a deadline. */
  readonly sandbox: Sandbox
  readonly #core: RequestCore

  /**
   * Checks every option at once: a TypeError names a bad `baseUrl`, `apiKey` (never echoed), `merchantId`,
   * `timeoutMs` or `maxRetries`, and a `payVersion` the contract does not know (its `code` is then
   * `invalid_api_version` or `unknown_api_version`).
   */
  constructor(options: TillClientOptions, hooks?: ClientHooks) {
    const apiKey = checkApiKey(options?.apiKey)
    this.#core = new RequestCore(apiKey, resolveConfig(options), options.dispatcher, hooks)
    this.merchantPayments = new MerchantPayments(this.#core)
    this.merchants = new Merchants(this.#core)
    this.payments = new Payments(this.#core)
    this.refunds = new Refunds(this.#core)
    this.sandbox = new Sandbox(this.#core)
    this.webhookEndpoints = new WebhookEndpoints(this.#core)
  }

  /**
   * Closes the connections of the client's own undici Agent, after requests in flight end. A dispatcher
   * passed in the options is left open. Later calls reject with `TillConnectionError` `client_closed`.
   */
  close(): Promise<void> {
    return this.#core.close()
  }
}
