// HTTP header names of the interface. Header names are case-insensitive on the wire; these are the
// spellings the spec uses and the ones responses are sent with.

export const API_KEY_HEADER = 'Api-Key'
export const MERCHANT_ID_HEADER = 'Merchant-Id'
export const API_VERSION_HEADER = 'Pay-Version'
export const APP_ID_HEADER = 'App-Id'
export const CLIENT_ID_HEADER = 'Client-Id'
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'
/** Set to `true` on a create-payment response that replays an earlier identical request. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed'
