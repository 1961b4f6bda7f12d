// One HTTP exchange on undici: send, read the whole body, within one attempt's time limit.
import type { Dispatcher } from 'undici'
import type { FailedAttempt } from './retry.ts'

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

export type Exchange = {
  dispatcher: Dispatcher
  origin: string
  /** Path and query, already encoded. */
  path: string
  method: HttpMethod
  headers: Record<string, string>
  body: string | undefined
  timeoutMs: number
  /** The caller's signal: when it aborts, the exchange rejects with its reason. */
  signal: AbortSignal | undefined
}

export type RawResponse = { status: number; headers: Record<string, string>; body: string }

export type ExchangeResult = { ok: true; response: RawResponse } | { ok: false; failure: FailedAttempt; cause: unknown }

// Failures that happen before a byte of the request is written: repeating such a request is always safe.
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
])
// The dispatcher is closed or refuses the request itself: repeating cannot help.
const FATAL_CODES: ReadonlySet<string> = new Set(['UND_ERR_DESTROYED', 'UND_ERR_CLOSED', 'UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED'])
const TIMEOUT_CODES: ReadonlySet<string> = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])

function errorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string') return code
  }
  return undefined
}

function classify(error: unknown, timedOut: boolean): FailedAttempt {
  const code = errorCode(error)
  if (code !== undefined && FATAL_CODES.has(code)) return { kind: 'fatal' }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return { kind: 'timeout', sent: false }
  if (timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) return { kind: 'timeout', sent: true }
  return { kind: 'connection', sent: !(code !== undefined && NOT_SENT_CODES.has(code)) }
}

/** Response headers as one string each, lower-case names (undici gives arrays for repeated ones). */
function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

/**
 * Performs one attempt. Resolves with the response (whatever its status) or with how it failed; rejects
 * only with the caller's abort reason, at once, whatever the exchange was doing.
 */
export async function exchange(request: Exchange): Promise<ExchangeResult> {
  const { signal } = request
  signal?.throwIfAborted()
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort(new Error(`attempt timed out after ${request.timeoutMs} ms`))
  }, request.timeoutMs)
  const onAbort = () => controller.abort(signal?.reason)
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const response = await request.dispatcher.request({
      origin: request.origin,
      path: request.path,
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      signal: controller.signal,
    })
    // The signal still covers the body: a stalled body is cut off by the same timer.
    const body = await response.body.text()
    return { ok: true, response: { status: response.statusCode, headers: flattenHeaders(response.headers), body } }
  } catch (error) {
    if (signal?.aborted) throw signal.reason
    return { ok: false, failure: classify(error, timedOut), cause: error }
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}
