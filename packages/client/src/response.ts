/** What the client knows of the HTTP response behind a result. */
export type ResponseMeta = {
  readonly status: number
  /** The version the server resolved for the request (`Pay-Version` response header, spec 9.3). */
  readonly payVersion: string | undefined
  readonly requestId: string | undefined
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>
  readonly method: string
  readonly path: string
  /** Attempts it took, retries included. */
  readonly attempts: number
}

/**
 * A result with its response's metadata under `lastResponse`. The property is not enumerable, so it stays
 * out of `JSON.stringify`, spreads and `Object.keys`: the result serialises exactly as the contract's shape.
 *
 * @example
 * const status = await till.payments.status(id);
 * status.lastResponse.payVersion; // '2026-02-18'
 */
export type TillResponse<T> = T & { readonly lastResponse: ResponseMeta }

export function withLastResponse<T extends object>(data: T, meta: ResponseMeta): TillResponse<T> {
  return Object.defineProperty(data, 'lastResponse', { value: meta, enumerable: false, writable: false }) as TillResponse<T>
}

export function responseMeta(
  status: number,
  headers: Record<string, string>,
  request: { method: string; path: string; attempts: number },
): ResponseMeta {
  return {
    status,
    payVersion: headers['pay-version'],
    requestId: headers['request-id'],
    headers,
    method: request.method,
    path: request.path,
    attempts: request.attempts,
  }
}
