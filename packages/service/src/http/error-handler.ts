import type { FastifyError, FastifyInstance } from 'fastify'
import { ApiError } from '../errors.ts'

// Fastify's own request errors, in the spec's vocabulary.
const FASTIFY_CODES: Record<string, () => ApiError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => new ApiError('invalid_params', 'The request body is not valid JSON.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new ApiError('invalid_params', 'The request body is empty; send a JSON object with Content-Type: application/json.'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ApiError('payload_too_large', 'The request body is too large.'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new ApiError('unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new ApiError('invalid_params', 'The Content-Length header does not match the body.'),
}

function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error
  const fastifyError = error as Partial<FastifyError>
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined
  if (known) return known()
  const status = fastifyError.statusCode
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError('invalid_params', fastifyError.message || 'The request is not valid.')
  }
  return undefined
}

/** The one mapping from anything thrown to the spec's error body (section 7). */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error)
    if (apiError) {
      if (apiError.status >= 500) request.log.error({ err: error }, apiError.message)
      return reply.code(apiError.status).send(apiError.toBody())
    }
    request.log.error({ err: error }, 'unhandled error')
    return reply.code(500).send(new ApiError('internal_error', 'Internal server error.').toBody())
  })
  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send(new ApiError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`).toBody())
  })
}
