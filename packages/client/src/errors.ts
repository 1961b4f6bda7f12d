import type { ErrorCode, ErrorIssue } from '@till/contract'

/**
 * Codes this client gives errors that carry no error body of the server: they never collide with a code
 * of `ERROR_CODES`, and `TillError.code` is a plain string so that codes added to the server later pass
 * through untouched.
 */
export const CLIENT_ERROR_CODES = {
  /** The response had an error status but no Till error body (an HTML page from a proxy, say). */
  httpError: 'http_error',
  /** The connection failed or broke before a whole response arrived. */
  connectionError: 'connection_error',
  /** An attempt took longer than `timeoutMs`. */
  timeout: 'timeout',
  /** A success response did not match the contract's schema. */
  invalidResponse: 'invalid_response',
  /** `close()` was called on the client. */
  clientClosed: 'client_closed',
} as const

/** A code of the spec's error body, a code of {@link CLIENT_ERROR_CODES}, or one added to the server later. */
export type TillErrorCode = ErrorCode | (typeof CLIENT_ERROR_CODES)[keyof typeof CLIENT_ERROR_CODES] | (string & {})

export type TillErrorInit = {
  message: string
  code: string
  /** HTTP status; undefined when no response arrived. */
  status?: number | undefined
  issues?: ErrorIssue[] | undefined
  details?: Record<string, unknown> | undefined
  /** Response headers, lower-case names. The request's headers (and so the API key) are never kept. */
  headers?: Record<string, string> | undefined
  method: string
  path: string
  attempts: number
  cause?: unknown
}

/**
 * Base class of every error the client throws for a request (constructor misuse throws `TypeError`, and an
 * abort by the caller's signal rejects with the signal's reason, as `fetch` does). Built from the spec's
 * error body (section 7): `message`, `code`, `details`, `issues`. It names the request (`method`, `path`)
 * and never holds the API key.
 */
export class TillError extends Error {
  readonly code: TillErrorCode
  readonly status: number | undefined
  /** Field-level problems of a validation error; empty when the server sent none. */
  readonly issues: ErrorIssue[]
  readonly details: Record<string, unknown> | undefined
  readonly headers: Record<string, string>
  /** The `Pay-Version` the server resolved for the request, when the response carried one. */
  readonly payVersion: string | undefined
  /** The `Request-Id` header of the response, when the server sent one. */
  readonly requestId: string | undefined
  readonly method: string
  /** Path of the request, with its query, relative to the base URL. */
  readonly path: string
  /** How many attempts were made, retries included. */
  readonly attempts: number

  constructor(init: TillErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.name = new.target.name
    this.code = init.code
    this.status = init.status
    this.issues = init.issues ?? []
    this.details = init.details
    this.headers = init.headers ?? {}
    this.payVersion = this.headers['pay-version']
    this.requestId = this.headers['request-id']
    this.method = init.method
    this.path = init.path
    this.attempts = init.attempts
  }
}

/** 400, and any other 4xx without a class of its own (405, 413, 415...): the request must change. */
export class TillInvalidRequestError extends TillError {}

/** 401: the API key is missing (`missing_api_key`) or not valid (`invalid_api_key`). */
export class TillAuthenticationError extends TillError {}

/** 403: the key is valid but may not do this. */
export class TillPermissionError extends TillError {}

/** 404: no such payment (`payment_not_found`), merchant (`merchant_not_found`) or route (`not_found`). */
export class TillNotFoundError extends TillError {}

/** 409: e.g. `reference_already_paid` or `reference_in_use`; `details.paymentId` names the blocking payment. */
export class TillConflictError extends TillError {}

/** 429: too many requests. `retryAfterMs` is the server's `Retry-After`, when it sent one. */
export class TillRateLimitError extends TillError {
  readonly retryAfterMs: number | undefined

  constructor(init: TillErrorInit & { retryAfterMs: number | undefined }) {
    super(init)
    this.retryAfterMs = init.retryAfterMs
  }
}

/** 5xx, or a status this client does not expect at all (a 3xx, say): the server's side failed. */
export class TillApiError extends TillError {}

/** No whole response arrived: refused, reset, DNS failure, or the client was closed. */
export class TillConnectionError extends TillError {}

/** An attempt ran past `timeoutMs`. A kind of connection error, so one `instanceof` catches both. */
export class TillTimeoutError extends TillConnectionError {}

/**
 * A 2xx response whose body is not JSON or does not match the contract's schema. `issues` names each
 * mismatch (`field` is the path in the response body); `status` is the response's.
 */
export class TillResponseValidationError extends TillError {}
