import { ERROR_CODES, toErrorIssues, type ErrorBody, type ErrorCode, type ErrorIssue } from '@till/contract'
import type { z } from 'zod'

/**
 * The one error taxonomy. Anything that should reach a client as the spec's error body is an ApiError;
 * its HTTP status follows from its code. Everything else is a bug and becomes a 500 `internal_error`.
 */
export class ApiError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly issues: ErrorIssue[] | undefined
  readonly details: Record<string, unknown> | undefined
  /** Sent as Retry-After with every 503, and a 429 that has none yet: when trying again makes sense. */
  readonly retryAfterSeconds: number

  constructor(
    code: ErrorCode,
    message: string,
    extra: { issues?: ErrorIssue[]; details?: Record<string, unknown>; retryAfterSeconds?: number } = {},
  ) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.status = ERROR_CODES[code].status
    this.issues = extra.issues
    this.details = extra.details
    this.retryAfterSeconds = extra.retryAfterSeconds ?? 1
  }

  toBody(): ErrorBody {
    return {
      message: this.message,
      code: this.code,
      ...(this.details ? { details: this.details } : {}),
      ...(this.issues ? { issues: this.issues } : {}),
    }
  }
}

/** How long a client should wait before it sends again a request the database could not serve. */
export const DATABASE_RETRY_AFTER_SECONDS = 2

/** The database is down or restarting: the request may be sent again as it was. */
export const databaseUnavailable = () =>
  new ApiError('service_unavailable', 'The database is unavailable right now; send the same request again shortly.', {
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  })

export const paymentNotFound = (id: string) => new ApiError('payment_not_found', `No payment ${id}.`)

export function validationError(error: z.ZodError, root: string): ApiError {
  const issues = toErrorIssues(error, root)
  const first = issues[0]
  const summary = first ? `${first.field}: ${first.message}` : 'the request is not valid'
  return new ApiError('params_validation', `Validation failed (${summary}).`, { issues })
}

/** A 400 about one field that its schema alone cannot judge (it names a thing that does not exist, say). */
export function fieldError(field: string, message: string): ApiError {
  return new ApiError('params_validation', `Validation failed (${field}: ${message}).`, { issues: [{ field, message }] })
}

/** Parses `value` with `schema` at the boundary; a failure is a 400 with field-level issues. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, root: string): z.output<S> {
  const result = schema.safeParse(value)
  if (!result.success) throw validationError(result.error, root)
  return result.data
}
