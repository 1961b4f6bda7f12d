/** Spec section 3: which listing-view statuses are terminal. Shared by the tests of every schema using it. */
export const LISTING_TERMINALITY = [
  ['requires_action', false],
  ['processing', false],
  ['succeeded', true],
  ['failed', true],
  ['expired', true],
  ['cancelled', true],
] as const
