import { compareApiVersions, parseApiVersion, type ApiVersion } from '@till/contract'
import { ApiError } from '../errors.ts'

/** Spec section 9: the header wins, else the partner's pin; never older than the pin. */
export function resolveApiVersion(header: string | undefined, pinned: ApiVersion): ApiVersion {
  if (header === undefined) return pinned
  const parsed = parseApiVersion(header.trim())
  if (!parsed.ok) {
    throw parsed.code === 'invalid_api_version'
      ? new ApiError('invalid_api_version', `Pay-Version "${header}" is not a version (expected YYYY-MM-DD, e.g. ${pinned}).`)
      : new ApiError('unknown_api_version', `Pay-Version "${header}" is not a known version.`)
  }
  if (compareApiVersions(parsed.version, pinned) < 0) {
    throw new ApiError('api_version_downgrade', `Pay-Version ${parsed.version} is older than this partner's pinned version ${pinned}.`, {
      details: { pinnedVersion: pinned },
    })
  }
  return parsed.version
}
