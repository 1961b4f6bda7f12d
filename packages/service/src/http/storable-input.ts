import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError } from '../errors.ts'

// What PostgreSQL cannot store in text or jsonb: the NUL character, and a lone UTF-16 surrogate (JSON's
// "\ud800" escape, which no UTF-8 encodes). Such a value would reach the database as an error, a 500.
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

function problemWith(value: string): string | undefined {
  const found = UNSTORABLE.exec(value)?.[0]
  if (found === undefined) return undefined
  return found === '\0' ? 'must not contain the NUL character (U+0000)' : 'must be well-formed Unicode: it holds a lone surrogate'
}

type Found = { field: string; message: string }

/** The first string inside `value` (an object, an array or a string) that cannot be stored, with its path. */
function findUnstorable(value: unknown, path: string): Found | undefined {
  if (typeof value === 'string') {
    const message = problemWith(value)
    return message ? { field: path, message } : undefined
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnstorable(item, `${path}[${index}]`)
      if (found) return found
    }
    return undefined
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findUnstorable(key, path) ?? findUnstorable(item, path ? `${path}.${key}` : key)
      if (found) return found
    }
  }
  return undefined
}

const refused = ({ field, message }: Found) =>
  new ApiError('params_validation', `Validation failed (${field}: ${message}).`, { issues: [{ field, message }] })

/**
 * Refuses, on every route and before any handler, input that PostgreSQL could not store: in the query or
 * the body, a 400 naming the field; in the path, a 404, since no identifier holds such a character.
 * Headers need no look: Node's HTTP parser refuses NUL in them with a 400, and decodes them as Latin-1,
 * which has no surrogates.
 */
export function refuseUnstorableInput(app: FastifyInstance) {
  app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    const inPath = findUnstorable(request.params, '')
    if (inPath) return done(new ApiError('not_found', `No such resource: the path segment ${inPath.field} ${inPath.message}.`))
    // A whole input that is wrong (a bad query key, a bare JSON string) is named by its place.
    const inQuery = findUnstorable(request.query, '')
    if (inQuery) return done(refused({ ...inQuery, field: inQuery.field || 'query' }))
    const inBody = findUnstorable(request.body, '')
    if (inBody) return done(refused({ ...inBody, field: inBody.field || 'body' }))
    done()
  })
}
