// The request core every resource goes through: headers, attempts, retries, and turning each response
// into a checked result or a TillError. Resources only describe endpoints (`Endpoint`).
import { API_KEY_HEADER, API_VERSION_HEADER, MERCHANT_ID_HEADER, toErrorIssues } from '@till/contract'
import { Agent, type Dispatcher } from 'undici'
import type { z } from 'zod'
import {
  checkMaxRetries,
  checkMerchantId,
  checkPayVersion,
  checkTimeout,
  type ClientConfig,
  type ClientHooks,
  type RequestOptions,
} from './config.ts'
import { errorFromResponse } from './error-response.ts'
import { CLIENT_ERROR_CODES, TillConnectionError, type TillError, TillResponseValidationError, TillTimeoutError } from './errors.ts'
import { exchange, type HttpMethod, type RawResponse } from './http.ts'
import { type ResponseMeta, responseMeta } from './response.ts'
import { type FailedAttempt, isRetryable, parseRetryAfter, retryDelayMs, sleep } from './retry.ts'

const USER_AGENT = `till-client-node/0.1.0 node/${process.versions.node}`

export type QueryValue = string | number | boolean | readonly string[] | undefined

/** One endpoint call, as a resource describes it. */
export type Endpoint<S extends z.ZodType> = {
  method: HttpMethod
  /** Path below the base URL, path parameters already encoded. */
  path: string
  query?: Record<string, QueryValue>
  /** Sent as JSON; bigints become decimal strings (money never passes through a float). */
  body?: unknown
  /** The contract schema of a 2xx body. */
  schema: S
  /**
   * Whether sending the request twice does what sending it once does. Only such requests are repeated
   * after the server may have seen them (see `isRetryable`).
   */
  idempotent: boolean
  /** Sends `Merchant-Id`: the merchant checkout API (spec section 5, rule 2). */
  merchantScoped?: boolean
  headers?: Record<string, string>
}

export type ApiResult<T> = { data: T; meta: ResponseMeta }

type Attempt = { method: HttpMethod; path: string; attempts: number; timeoutMs: number }
type AttemptFailure = { ok: false; error: TillError; failure: FailedAttempt }
type AttemptOutcome<T> = { ok: true; result: ApiResult<T> } | AttemptFailure

const jsonReplacer = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value)

function queryString(query: Record<string, QueryValue> | undefined): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item))
  }
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

export class RequestCore {
  // A private field: util.inspect and console.log of the client never show it.
  readonly #apiKey: string
  readonly #config: ClientConfig
  readonly #dispatcher: Dispatcher
  readonly #ownsDispatcher: boolean
  readonly #random: () => number
  readonly #sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>
  #closed = false

  constructor(apiKey: string, config: ClientConfig, dispatcher: Dispatcher | undefined, hooks: ClientHooks = {}) {
    this.#apiKey = apiKey
    this.#config = config
    this.#ownsDispatcher = dispatcher === undefined
    this.#dispatcher = dispatcher ?? new Agent({ keepAliveTimeout: 10_000 })
    this.#random = hooks.random ?? Math.random
    this.#sleep = hooks.sleep ?? sleep
  }

  /** Sends the request, retrying where safe; resolves with the checked body, or rejects with a TillError. */
  async request<S extends z.ZodType>(endpoint: Endpoint<S>, options: RequestOptions = {}): Promise<ApiResult<z.output<S>>> {
    const config = this.#config
    const path = `${endpoint.path}${queryString(endpoint.query)}`
    const headers = this.#headers(endpoint, options)
    const body = endpoint.body === undefined ? undefined : JSON.stringify(endpoint.body, jsonReplacer)
    const timeoutMs = options.timeoutMs === undefined ? config.timeoutMs : checkTimeout(options.timeoutMs)
    const maxRetries = options.maxRetries === undefined ? config.maxRetries : checkMaxRetries(options.maxRetries)

    for (let attempts = 1; ; attempts++) {
      const attempt: Attempt = { method: endpoint.method, path, attempts, timeoutMs }
      if (this.#closed) throw this.#failure(attempt, { kind: 'fatal' }, undefined).error
      const result = await exchange({
        dispatcher: this.#dispatcher,
        origin: config.origin,
        path: `${config.basePath}${path}`,
        method: endpoint.method,
        headers,
        body,
        timeoutMs,
        signal: options.signal,
      })
      const outcome = result.ok
        ? this.#fromResponse(endpoint.schema, result.response, attempt)
        : this.#failure(attempt, result.failure, result.cause)
      if (outcome.ok) return outcome.result
      const canRetry = attempts <= maxRetries && isRetryable(outcome.failure, endpoint.idempotent)
      const delay = canRetry ? retryDelayMs(outcome.failure, attempts - 1, config.retryTuning, this.#random) : undefined
      if (delay === undefined) throw outcome.error
      await this.#sleep(delay, options.signal)
    }
  }

  /** Closes the dispatcher the client created (one it was given stays open); later calls fail at once. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    if (this.#ownsDispatcher) await this.#dispatcher.close()
  }

  #headers(endpoint: Endpoint<z.ZodType>, options: RequestOptions): Record<string, string> {
    const headers: Record<string, string> = {
      [API_KEY_HEADER]: this.#apiKey,
      accept: 'application/json',
      'user-agent': USER_AGENT,
    }
    const payVersion = options.payVersion === undefined ? this.#config.payVersion : checkPayVersion(options.payVersion, 'request')
    if (payVersion !== undefined) headers[API_VERSION_HEADER] = payVersion
    if (endpoint.merchantScoped) {
      const merchantId = options.merchantId ?? this.#config.merchantId
      if (merchantId === undefined) {
        throw new TypeError(`${endpoint.method} ${endpoint.path} needs a merchantId: set it on the TillClient or in the request options`)
      }
      headers[MERCHANT_ID_HEADER] = checkMerchantId(merchantId, 'request')
    }
    if (endpoint.body !== undefined) headers['content-type'] = 'application/json'
    return { ...headers, ...endpoint.headers }
  }

  #fromResponse<S extends z.ZodType>(schema: S, response: RawResponse, attempt: Attempt): AttemptOutcome<z.output<S>> {
    const { status, headers } = response
    const request = { method: attempt.method, path: attempt.path, attempts: attempt.attempts }
    if (status < 200 || status > 299) {
      const retryAfterMs = parseRetryAfter(headers['retry-after'])
      const error = errorFromResponse({ status, headers, body: response.body, retryAfterMs, ...request })
      return { ok: false, error, failure: { kind: 'status', status, retryAfterMs } }
    }
    // 204 No Content (a delete) has no body to parse.
    const json = status === 204 ? { ok: true as const, value: undefined } : parseJson(response.body)
    const parsed = json.ok ? schema.safeParse(json.value) : undefined
    if (parsed?.success) return { ok: true, result: { data: parsed.data, meta: responseMeta(status, headers, request) } }
    const issues = parsed ? toErrorIssues(parsed.error, 'response') : [{ field: 'response', message: 'is not JSON' }]
    const summary = issues.map((issue) => `${issue.field} ${issue.message}`).join('; ')
    const error = new TillResponseValidationError({
      message: `${attempt.method} ${attempt.path}: the ${status} response does not match the contract: ${summary}`,
      code: CLIENT_ERROR_CODES.invalidResponse,
      status,
      issues,
      headers,
      ...request,
    })
    return { ok: false, error, failure: { kind: 'fatal' } }
  }

  #failure(attempt: Attempt, failure: FailedAttempt, cause: unknown): AttemptFailure {
    const where = `${attempt.method} ${attempt.path}`
    const base = { method: attempt.method, path: attempt.path, attempts: attempt.attempts, cause }
    const reason = cause instanceof Error ? cause.message : String(cause)
    if (failure.kind === 'timeout') {
      const error = new TillTimeoutError({
        ...base,
        message: `${where}: no complete response within ${attempt.timeoutMs} ms (attempt ${attempt.attempts})`,
        code: CLIENT_ERROR_CODES.timeout,
      })
      return { ok: false, error, failure }
    }
    const closed = this.#closed && failure.kind === 'fatal'
    const error = new TillConnectionError({
      ...base,
      message: closed
        ? `${where}: the TillClient is closed`
        : `${where}: connection failed after ${attempt.attempts} attempt(s): ${reason}`,
      code: closed ? CLIENT_ERROR_CODES.clientClosed : CLIENT_ERROR_CODES.connectionError,
    })
    return { ok: false, error, failure }
  }
}
