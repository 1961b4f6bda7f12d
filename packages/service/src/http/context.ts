import { API_VERSION_HEADER, MerchantId, type ApiVersion } from '@till/contract'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../errors.ts'
import type { Authenticator, Principal } from './auth.ts'
import { accepts, operationsAccepting } from './operations.ts'
import { enforceRateLimit, refuseIfLimited, type RateLimiter } from './rate-limit.ts'
import { resolveApiVersion } from './versioning.ts'

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | undefined
    apiVersion: ApiVersion | undefined
  }
}

export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()]
  return Array.isArray(value) ? value[0] : value
}

export type ApiLimiters = {
  /** Every authenticated request, per API key. */
  perKey: RateLimiter
  /** Failed authentications (401s), per client address. */
  authFailuresPerAddress: RateLimiter
}

const FAILED_AUTH = 'with a missing or invalid API key from this address'
const WALLET_OPERATIONS = operationsAccepting('walletApp')

/**
 * The onRequest hook of every /v1 route: who is calling (section 5), in the ways its operation accepts
 * (@till/contract's OPERATIONS, bound to the route by bindOperations), within which limits, then which
 * version they get (section 9). It runs before the body is read, so an unauthenticated request costs no
 * parsing. An address that has used up its failed authentications is refused before its key is even
 * looked up, unless the key names one this process already knows: clients with good keys sharing that
 * address (a NAT, a proxy without --trust-proxy) keep working, and a flood of made-up keys costs no query.
 */
export function authenticateRequest(auth: Authenticator, limits: ApiLimiters) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const authorization = accepts(request, 'bearer') ? header(request, 'Authorization') : undefined
    const rawKey = header(request, 'Api-Key') ?? (authorization === undefined ? undefined : bearerToken(authorization))
    const appId = header(request, 'App-Id')
    const asWallet = rawKey === undefined && appId !== undefined
    const failures = limits.authFailuresPerAddress.peek(request.ip)
    if (!failures.allowed && (asWallet || !auth.recognizes(rawKey))) refuseIfLimited(failures, reply, FAILED_AUTH)
    let principal: Principal
    try {
      if (rawKey === '' && authorization !== undefined) {
        throw new ApiError(
          'missing_api_key',
          'Authorization must use the Bearer scheme: `Authorization: Bearer <API key>`, or send the Api-Key header.',
        )
      }
      if (asWallet && !accepts(request, 'walletApp')) {
        throw new ApiError(
          'missing_api_key',
          `This operation needs the Api-Key header; App-Id and Client-Id are accepted by ${WALLET_OPERATIONS} only.`,
        )
      }
      principal = asWallet ? await auth.authenticateWallet(appId, header(request, 'Client-Id')) : await auth.authenticate(rawKey)
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) enforceRateLimit(limits.authFailuresPerAddress, request.ip, reply, FAILED_AUTH)
      throw error
    }
    enforceRateLimit(limits.perKey, principal.keyId, reply, 'with this API key')
    const version = resolveApiVersion(header(request, API_VERSION_HEADER), principal.pinnedVersion)
    request.principal = principal
    request.apiVersion = version
    reply.header(API_VERSION_HEADER, version)
  }
}

/** The key of `Authorization: Bearer <key>`; '' for any other scheme, which is refused as no key at all. */
function bearerToken(authorization: string): string {
  return /^Bearer +(\S+) *$/i.exec(authorization)?.[1] ?? ''
}

/** The API version resolved for the request (spec 9), set by the authentication hook. */
export function versionOf(request: FastifyRequest): ApiVersion {
  if (!request.apiVersion) throw new Error('route is missing the authentication hook')
  return request.apiVersion
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route is missing the authentication hook')
  return request.principal
}

/** The Merchant-Id header, which must name a merchant of the calling partner (section 5, rule 2). */
export async function requireMerchant(request: FastifyRequest, auth: Authenticator): Promise<string> {
  const merchantId = header(request, 'Merchant-Id')?.trim()
  if (!merchantId) {
    throw new ApiError('params_validation', 'The Merchant-Id header is required.', {
      issues: [{ field: 'Merchant-Id', message: 'Required header' }],
    })
  }
  // A known merchant is looked up without parsing; the shape check guards only the database lookup.
  const owner =
    auth.knownMerchantPartner(merchantId) ?? (MerchantId.safeParse(merchantId).success ? await auth.merchantPartner(merchantId) : undefined)
  if (owner !== principalOf(request).partnerId) {
    throw new ApiError('merchant_not_found', `No merchant ${merchantId} for this API key.`)
  }
  return merchantId
}
