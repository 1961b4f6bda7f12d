import type { Clock } from '../core/clock.ts'
import { concurrencyLimit } from '../core/concurrency.ts'
import { ApiError } from '../errors.ts'
import type { FetchedLogo } from './fetch.ts'
import { checkLogo } from './image.ts'
import { LogoRefused } from './refusal.ts'
import type { LogoStore } from './store.ts'

/** A logo as a merchant record holds it: Till's copy, and where it came from. */
export type ImportedLogo = { digest: string; sourceUrl: string }

export type LogoImporter = (url: string) => Promise<ImportedLogo>

/** How an import ended: kept, refused (not a usable logo, or its host would not give it), busy, or failed. */
export type LogoOutcome = 'imported' | 'refused' | 'busy' | 'error'

/**
 * Spec 8.2 at call time: fetch the partner's iconUrl once (SSRF-safe), check the image, re-encode it and keep
 * Till's copy. Throws LogoRefused, with a message for the partner, for anything that is not a good logo.
 */
export function logoImporter(deps: {
  fetch: (url: string) => Promise<FetchedLogo>
  store: LogoStore
  clock: Clock
  /** Told how each import ended (metrics). */
  ended?: (outcome: LogoOutcome) => void
}): LogoImporter {
  // Decoding a logo may take some 64 MB of pixels: a few at a time, whoever sends many at once.
  const decoding = concurrencyLimit({
    running: 2,
    waiting: 8,
    busy: () => new ApiError('service_unavailable', 'Till is importing many logos right now; retry in a few seconds.'),
  })
  const outcomeOf = (error: unknown): LogoOutcome =>
    error instanceof LogoRefused ? 'refused' : error instanceof ApiError && error.code === 'service_unavailable' ? 'busy' : 'error'
  return async (url) => {
    try {
      const fetched = await deps.fetch(url)
      const checked = await decoding(() => checkLogo(fetched.bytes))
      const digest = await deps.store.save(checked.variants, deps.clock.now())
      deps.ended?.('imported')
      return { digest, sourceUrl: url }
    } catch (error) {
      deps.ended?.(outcomeOf(error))
      throw error
    }
  }
}
