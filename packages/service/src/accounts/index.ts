// The accounts area's door: what the rest of the service may use of it. Everything else in accounts/ is its own
// (src/areas.test.ts checks it).
export { apiKeyId, apiKeyMatches, hashApiKey } from './api-keys.ts'
export { accountStore } from './store.ts'
export type { AccountStore, ApiKeyView, AppRecord, KeyRecord, MerchantRecord } from './store.ts'
