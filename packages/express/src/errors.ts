// The router's one error taxonomy and its one mapping to the error body the elements read
// (`MerchantErrorBody`, the same shape as the Pay interface's).
import type { MerchantErrorBody } from '@till/contract'
import type { ErrorRequestHandler, Request } from 'express'

export type MerchantErrorCode =
  | 'invalid_request'
  | 'order_not_found'
  | 'order_already_paid'
  | 'order_changed'
  | 'payment_service_error'
  | 'internal_error'
  | 'invalid_signature'

export class MerchantError extends Error {
  readonly status: number
  readonly code: MerchantErrorCode
  readonly issues: MerchantErrorBody['issues']

  constructor(status: number, code: MerchantErrorCode, message: string, issues?: MerchantErrorBody['issues']) {
    super(message)
    this.name = 'MerchantError'
    this.status = status
    this.code = code
    this.issues = issues
  }

  toBody(): MerchantErrorBody {
    return this.issues === undefined
      ? { message: this.message, code: this.code }
      : { message: this.message, code: this.code, issues: this.issues }
  }
}

/** A form post (the no-JavaScript fallback) gets a page to read, everything else JSON. */
export const wantsHtml = (request: Request): boolean =>
  request.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded'

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)

function errorPage(error: MerchantError): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Payment not started</title><main><h1>Payment not started</h1><p>${escapeHtml(error.message)}</p>
<p>Go back to the shop to try again.</p></main></html>`
}

/**
 * Maps every error the router's routes throw to a status and body. Anything that is not a `MerchantError`
 * is a bug or an outage: it is reported through `onError` and answered with a generic 500, so no internal
 * detail (or secret) reaches the browser.
 */
export function errorHandler(onError: (error: unknown) => void): ErrorRequestHandler {
  return (error: unknown, request, response, next) => {
    if (response.headersSent) {
      next(error)
      return
    }
    let known: MerchantError
    if (error instanceof MerchantError) known = error
    else if (isBodyParserError(error)) known = new MerchantError(error.status, 'invalid_request', 'The request body could not be read.')
    else {
      onError(error)
      known = new MerchantError(500, 'internal_error', 'Something went wrong on the shop’s side; please try again.')
    }
    response.status(known.status)
    response.set('Cache-Control', 'no-store')
    if (wantsHtml(request)) response.type('html').send(errorPage(known))
    else response.json(known.toBody())
  }
}

function isBodyParserError(error: unknown): error is { status: number } {
  if (typeof error !== 'object' || error === null || !('type' in error) || !('status' in error)) return false
  return typeof error.status === 'number' && error.status >= 400 && error.status < 500
}
