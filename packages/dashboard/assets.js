// Where the built dashboard is, for the service that serves it: `pnpm build` writes it there.
export const DASHBOARD_DIST = new URL('./dist/', import.meta.url)
