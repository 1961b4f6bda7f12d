/** Spec section 3: which listing-view statuses are terminal. Shared by the tests of every schema using it. */
export const LISTING_TERMINALITY = [
  ['requires_action', false],
  ['processing', false],
  ['succeeded', true],
  ['failed', true],
  ['expired', true],
  ['cancelled', true],
] as const

/** Spec section 3: which merchant-view statuses are final; `cancelled` (issue 24) is final as `failed` is. */
export const MERCHANT_FINALITY = [
  ['pending', false],
  ['processing', false],
  ['succeeded', true],
  ['failed', true],
  ['expired', true],
  ['cancelled', true],
] as const
