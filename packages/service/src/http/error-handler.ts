import { maxHeaderSize, STATUS_CODES, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { ConnectionError, FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DatabaseUnavailable } from '../db/port.ts'
import { ApiError, databaseUnavailable } from '../errors.ts'

/** The longest path parameter routed: the contract's identifiers are 1 to 128 characters. */
export const MAX_PARAM_LENGTH = 128

// Fastify's own request errors, in the spec's vocabulary.
const FASTIFY_CODES: Record<string, () => ApiError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => new ApiError('invalid_params', 'The request body is not valid JSON.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new ApiError('invalid_params', 'The request body is empty; send a JSON object with Content-Type: application/json.'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ApiError('payload_too_large', 'The request body is too large.'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new ApiError('unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new ApiError('invalid_params', 'The Content-Length header does not match the body.'),
  FST_ERR_BAD_URL: () => new ApiError('bad_request', 'The request path is not a valid URL: it has a malformed percent-encoding.'),
  FST_ERR_MAX_PARAM_LENGTH: () =>
    new ApiError('uri_too_long', `A path segment is longer than any identifier (at most ${MAX_PARAM_LENGTH} characters).`),
}

function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error
  if (error instanceof DatabaseUnavailable) return databaseUnavailable()
  const fastifyError = error as Partial<FastifyError>
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined
  if (known) return known()
  const status = fastifyError.statusCode
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError('invalid_params', fastifyError.message || 'The request is not valid.')
  }
  return undefined
}

const internalError = () => new ApiError('internal_error', 'Internal server error.')

/** Sends `error` in the spec's shape. A 503 says when to retry; only a 5xx that is Till's fault is an error in the log. */
function sendApiError(error: ApiError, cause: unknown, request: FastifyRequest, reply: FastifyReply) {
  // A 429 raised by a route's own limit says when as well (one raised by refuseIfLimited already has it).
  if (error.status === 429 && !reply.hasHeader('Retry-After')) reply.header('Retry-After', String(error.retryAfterSeconds))
  if (error.status === 503) {
    reply.header('Retry-After', String(error.retryAfterSeconds))
    // An outage is logged once, where it is noticed (the database adapter), not once per request.
    request.log.debug({ err: cause }, error.message)
  } else if (error.status >= 500) {
    request.log.error({ err: cause }, error.message)
  }
  return reply.code(error.status).send(error.toBody())
}

/**
 * An answer sent while the request body is still on its way (a 401 from an onRequest hook, a 413 from the
 * Content-Length) ends the connection: keeping it would mean reading, for as long as the client likes, a
 * body nobody wants before the next request could start.
 */
export function closeIfBodyUnread(request: FastifyRequest, reply: FastifyReply) {
  const raw = request.raw
  if (raw.complete) return
  const hasBody = raw.headers['transfer-encoding'] !== undefined || (raw.headers['content-length'] ?? '0') !== '0'
  if (hasBody) reply.header('Connection', 'close')
}

/** The one mapping from anything thrown to the spec's error body (section 7). */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error)
    if (apiError) return sendApiError(apiError, error, request, reply)
    request.log.error({ err: error }, 'unhandled error')
    return reply.code(500).send(internalError().toBody())
  })
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(new ApiError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`).toBody())
  })
}

/**
 * Fastify's `frameworkErrors`: the router's refusals (a malformed percent-encoding, a path parameter over
 * MAX_PARAM_LENGTH). They come before any route, so none of the app's hooks add the usual headers.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  closeIfBodyUnread(request, reply)
  void sendApiError(
    toApiError(error) ?? internalError(),
    error,
    request,
    reply.header('Request-Id', request.id).header('Cache-Control', 'no-store'),
  )
}

function clientErrorOf(error: ConnectionError): ApiError {
  const code = String(error.code)
  // Node's headers and request timeouts (`ERR_HTTP_REQUEST_TIMEOUT`); some versions name the first apart.
  if (code.endsWith('_TIMEOUT')) {
    return new ApiError('request_timeout', 'The request did not arrive in time; send its headers and body without pausing.')
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ApiError('header_too_large', `The request line and headers are larger than ${maxHeaderSize / 1024} KiB.`)
  }
  return new ApiError('bad_request', 'The request is not valid HTTP/1.1.')
}

/** A whole HTTP/1.1 error response, for a socket on which Node could not make a request of what arrived. */
export function rawErrorResponse(error: ApiError, requestId: string): string {
  const body = JSON.stringify(error.toBody())
  return (
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `Request-Id: ${requestId}\r\n` +
    'Cache-Control: no-store\r\n' +
    'Connection: close\r\n' +
    '\r\n' +
    body
  )
}

// Node's own clientError default makes the same check: bytes written into a response already on its way
// would corrupt it for the client.
const responseStarted = (socket: Socket) => (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage?.headersSent === true

/**
 * Fastify's `clientErrorHandler`: what Node's parser or its timeouts refuse (malformed HTTP, headers over
 * the limit, headers or a body too slow) never becomes a request. The answer is written on the socket,
 * in the spec's shape with a Request-Id like every other, and the connection ends.
 */
export function clientErrorHandler(deps: { requestId: () => string; log: () => FastifyBaseLogger }) {
  return (error: ConnectionError, socket: Socket) => {
    // A reset connection has no one left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return
    const apiError = clientErrorOf(error)
    const requestId = deps.requestId()
    // Clients cause these, often by the thousand: worth a look when debugging, not a warning.
    deps.log().debug({ err: error, requestId }, `client error answered with ${apiError.status} ${apiError.code}`)
    if (socket.writable && !responseStarted(socket)) socket.write(rawErrorResponse(apiError, requestId))
    socket.destroy()
  }
}
