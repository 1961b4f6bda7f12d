import { z } from 'zod'

type ErrorCodeInfo = { status: number; description: string }

export const ERROR_CODES = {
  invalid_params: { status: 400, description: 'Invalid request parameters.' },
  params_validation: { status: 400, description: 'Validation failed.' },
  invalid_api_version: { status: 400, description: 'Invalid API version: the Pay-Version value is malformed.' },
  unknown_api_version: { status: 400, description: 'Unknown API version: the Pay-Version value is not a version this server knows.' },
  api_version_downgrade: { status: 400, description: "Requested version is older than the partner's pinned version." },
  missing_idempotency_key: { status: 400, description: 'The Idempotency-Key header is required.' },
  invalid_idempotency_key: { status: 400, description: 'The Idempotency-Key header must be 1 to 255 characters long.' },
  bad_request: { status: 400, description: 'The request is not valid HTTP, or its target is not a valid URL.' },
  missing_api_key: { status: 401, description: 'No API key sent.' },
  invalid_api_key: { status: 401, description: 'API key not valid.' },
  merchant_not_found: { status: 404, description: 'No merchant for the given Merchant-Id.' },
  payment_not_found: { status: 404, description: 'No payment with this id for this merchant.' },
  refund_not_found: { status: 404, description: 'No refund with this id for this merchant.' },
  unapplied_transfer_not_found: { status: 404, description: 'No unapplied transfer with this id for this merchant.' },
  webhook_endpoint_not_found: { status: 404, description: 'No webhook endpoint with this id for this merchant.' },
  checkout_token_invalid: {
    status: 403,
    description: 'The checkout token is missing or belongs to another payment: the gateway API serves only the page of its own payment.',
  },
  not_found: { status: 404, description: 'No such resource or route.' },
  sign_in_failed: { status: 401, description: 'The email or the password is wrong (the answer never says which).' },
  not_signed_in: { status: 401, description: 'No dashboard session, or it ended: sign in again.' },
  csrf_refused: {
    status: 403,
    description: 'A state-changing dashboard request came from another origin, or without the session’s CSRF token.',
  },
  role_forbidden: { status: 403, description: 'The dashboard user’s role does not allow this.' },
  invitation_not_found: { status: 404, description: 'No dashboard invitation for this link.' },
  invitation_used: { status: 410, description: 'This dashboard invitation was already used.' },
  last_owner: { status: 409, description: 'The change would leave the partner without an owner in the dashboard.' },
  last_sign_in_method: { status: 409, description: 'The change would leave the dashboard user no way to sign in.' },
  invitation_expired: { status: 410, description: 'This dashboard invitation has expired (after 24 hours).' },
  method_not_allowed: { status: 405, description: 'The route exists but not for this HTTP method.' },
  request_timeout: { status: 408, description: 'The request (its headers or its body) did not arrive in time.' },
  reference_already_paid: { status: 409, description: 'A payment for this referenceId already succeeded.' },
  reference_in_use: { status: 409, description: 'An open payment for this referenceId has a different amount.' },
  payment_not_cancellable: {
    status: 409,
    description: 'Only a pending payment that no transaction pays can be cancelled; `details.status` names its status.',
  },
  payment_not_refundable: {
    status: 409,
    description: 'Only a succeeded payment or an unapplied transfer can be refunded; `details.status` names the payment’s status.',
  },
  refund_exceeds_payment: {
    status: 409,
    description: 'The refunds of the payment would add up to more than was paid; `details.refundable` is what is left.',
  },
  refund_not_cancellable: {
    status: 409,
    description: 'A refund can be cancelled only before its transaction is known; `details.status` names its status.',
  },
  refund_not_payable: {
    status: 409,
    description: 'The refund is not waiting to be paid (its transaction is known, or it ended); `details.status` names its status.',
  },
  refund_link_used: { status: 410, description: 'This refund link was already used.' },
  refund_link_expired: { status: 410, description: 'This refund link has expired.' },
  refund_link_invalid: { status: 403, description: 'The refund link is not valid for this refund.' },
  invalid_transition: { status: 409, description: 'The payment cannot move to the requested status from its current one.' },
  transaction_already_used: {
    status: 409,
    description:
      'This transaction hash was already submitted, for this payment or another: a transaction pays one payment, or one refund, only.',
  },
  transaction_not_found: {
    status: 409,
    description: "The network's node does not know this transaction yet; submit it again in a few seconds.",
  },
  idempotency_conflict: { status: 409, description: 'This Idempotency-Key was already used with a different request body.' },
  payload_too_large: { status: 413, description: 'The request body is too large.' },
  uri_too_long: { status: 414, description: 'A path segment of the request is longer than any identifier can be.' },
  unsupported_media_type: { status: 415, description: 'The request body must be application/json.' },
  rate_limited: { status: 429, description: 'Too many requests; retry after the number of seconds in the Retry-After header.' },
  header_too_large: { status: 431, description: 'The request headers are too large.' },
  internal_error: { status: 500, description: 'Internal server error.' },
  bad_gateway: { status: 502, description: 'Upstream service returned an error.' },
  service_unavailable: { status: 503, description: 'The service is temporarily unavailable.' },
} as const satisfies Record<string, ErrorCodeInfo>

export type ErrorCode = keyof typeof ERROR_CODES

const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]

export const ErrorCodeSchema = z
  .enum(ERROR_CODE_NAMES)
  .meta({ id: 'ErrorCode', description: 'Machine-readable error codes this server sends.' })

export const ErrorIssue = z
  .object({
    field: z
      .string()
      .meta({ description: 'Path of the offending value: `amount.value`, `status[1]`; `body` or `query` for the whole input.' }),
    message: z.string(),
  })
  .meta({ id: 'ErrorIssue', description: 'One field-level validation problem.' })
export type ErrorIssue = z.infer<typeof ErrorIssue>

export const ErrorBody = z
  .object({
    message: z.string().meta({ description: 'Human-readable.' }),
    // A plain string rather than ErrorCodeSchema: clients must tolerate codes added after they were built.
    code: z.string().meta({ description: 'Machine-readable error code.' }),
    details: z.record(z.string(), z.unknown()).optional(),
    issues: z.array(ErrorIssue).optional(),
  })
  .meta({ id: 'ErrorBody', description: 'Error response body.' })
export type ErrorBody = z.infer<typeof ErrorBody>

function joinPath(path: readonly PropertyKey[], root: string): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else out += out === '' ? String(key) : `.${String(key)}`
  }
  return out === '' ? root : out
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
  bigint: 'a bigint',
}

const typeName = (name: string): string => TYPE_NAMES[name] ?? name

// zod's English defaults ("Invalid input: expected string, received number") read like parser
// internals; messages written in this package already start lower-case with "must" and pass through.
const ZOD_DEFAULT = /^(Invalid|Too (big|small)|Unrecognized)/

function humanMessage(issue: z.core.$ZodIssue): string {
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message
  switch (issue.code) {
    case 'invalid_type': {
      const received = /received (\S+)$/.exec(issue.message)?.[1]
      if (received === 'undefined') return 'is required'
      const expected = typeName(issue.expected)
      return received === undefined ? `must be ${expected}` : `must be ${expected}, not ${typeName(received)}`
    }
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
    case 'too_small':
      if (issue.origin === 'string') return `must be at least ${issue.minimum} characters long`
      if (issue.origin === 'array') return `must have at least ${issue.minimum} item(s)`
      return `must be ${issue.inclusive === false ? 'greater than' : 'at least'} ${issue.minimum}`
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters long`
      if (issue.origin === 'array') return `must have at most ${issue.maximum} item(s)`
      return `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${issue.maximum}`
    case 'invalid_format':
      if (issue.format === 'email') return 'must be a valid e-mail address'
      if (issue.format === 'datetime') return 'must be an RFC 3339 date-time with a time zone, e.g. 2026-02-18T12:00:00Z'
      if (issue.format === 'url') return 'must be an absolute URL'
      if (issue.format === 'regex') return `must match the pattern ${issue.pattern ?? ''}`.trimEnd()
      return `must be a valid ${issue.format}`
    default:
      return issue.message
  }
}

/** Of several failed union branches, the one with fewest and then deepest issues is most likely the one meant. */
function bestBranch(branches: readonly (readonly z.core.$ZodIssue[])[]): readonly z.core.$ZodIssue[] | undefined {
  let best: readonly z.core.$ZodIssue[] | undefined
  let bestDepth = -1
  for (const branch of branches) {
    if (branch.length === 0) continue
    const depth = Math.max(...branch.map((i) => i.path.length))
    if (best === undefined || branch.length < best.length || (branch.length === best.length && depth > bestDepth)) {
      best = branch
      bestDepth = depth
    }
  }
  return best
}

function collect(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[], root: string, out: ErrorIssue[]): void {
  for (const issue of issues) {
    const path = [...prefix, ...issue.path]
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ field: joinPath([...path, key], root), message: 'is not recognised; check the spelling' })
      continue
    }
    if (issue.code === 'invalid_union') {
      const branch = bestBranch(issue.errors)
      if (branch !== undefined) {
        collect(branch, path, root, out)
        continue
      }
    }
    out.push({ field: joinPath(path, root), message: humanMessage(issue) })
  }
}

/**
 * Flattens a ZodError into `{field, message}` pairs. `root` names the whole input (`body`, `query`)
 * for issues that belong to no single field.
 */
export function toErrorIssues(error: z.ZodError, root = 'body'): ErrorIssue[] {
  const out: ErrorIssue[] = []
  collect(error.issues, [], root, out)
  return out
}
