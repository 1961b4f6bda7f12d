// The logos area's door: what the rest of the service may use of it. Everything else in logos/ is its own
// (src/areas.test.ts checks it).
export { logoFetcher } from './fetch.ts'
export type { LogoFetchOptions } from './fetch.ts'
export { logoImporter } from './importer.ts'
export type { ImportedLogo, LogoImporter } from './importer.ts'
export { LogoRefused } from './refusal.ts'
export { logoStore } from './store.ts'
export type { LogoStore } from './store.ts'
export { LOGO_SIZES, logoUrls } from './urls.ts'
export type { LogoUrl } from './urls.ts'
