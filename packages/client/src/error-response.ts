import { ErrorBody } from '@till/contract'
import {
  CLIENT_ERROR_CODES,
  TillApiError,
  TillAuthenticationError,
  TillConflictError,
  type TillError,
  type TillErrorInit,
  TillInvalidRequestError,
  TillNotFoundError,
  TillPermissionError,
  TillRateLimitError,
} from './errors.ts'

/** How much of a body that is not a Till error body is quoted in the message. */
const QUOTED_BODY_CHARS = 200

export type ErrorResponse = {
  status: number
  headers: Record<string, string>
  body: string
  method: string
  path: string
  attempts: number
  retryAfterMs: number | undefined
}

function parseErrorBody(text: string): ErrorBody | undefined {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return undefined
  }
  const parsed = ErrorBody.safeParse(json)
  return parsed.success ? parsed.data : undefined
}

/** A one-line, shortened quote of a body, so an HTML page does not flood a log. */
function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > QUOTED_BODY_CHARS ? `${flat.slice(0, QUOTED_BODY_CHARS)}…` : flat
}

/**
 * The error of a non-2xx response. A spec error body (section 7) gives message (the server's, as it is,
 * so it can be shown), code, details and issues; anything else (empty, HTML, JSON of another shape) still gives an error of the right class,
 * with the code `http_error` and the start of the body in the message.
 */
export function errorFromResponse(response: ErrorResponse): TillError {
  const { status, method, path } = response
  const body = parseErrorBody(response.body)
  const init: TillErrorInit = body
    ? {
        message: body.message,
        code: body.code,
        status,
        issues: body.issues,
        details: body.details,
        headers: response.headers,
        method,
        path,
        attempts: response.attempts,
      }
    : {
        message:
          `HTTP ${status} from ${method} ${path} without a Till error body` +
          (response.body.trim() === '' ? ' (empty body)' : `: ${quote(response.body)}`),
        code: CLIENT_ERROR_CODES.httpError,
        status,
        headers: response.headers,
        method,
        path,
        attempts: response.attempts,
      }
  return errorForStatus(status, init, response.retryAfterMs)
}

function errorForStatus(status: number, init: TillErrorInit, retryAfterMs: number | undefined): TillError {
  switch (status) {
    case 401:
      return new TillAuthenticationError(init)
    case 403:
      return new TillPermissionError(init)
    case 404:
      return new TillNotFoundError(init)
    case 409:
      return new TillConflictError(init)
    case 429:
      return new TillRateLimitError({ ...init, retryAfterMs })
    default:
      return status >= 400 && status < 500 ? new TillInvalidRequestError(init) : new TillApiError(init)
  }
}
