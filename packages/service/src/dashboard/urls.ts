import type { AppConfig } from '../app-config.ts'

/** Where the dashboard is: `<public url>/dashboard/`, and the origin its requests must come from. */
export function dashboardUrls(config: Pick<AppConfig, 'checkoutUrl' | 'publicUrl'>) {
  const base = () => config.publicUrl?.() ?? new URL(config.checkoutUrl()).origin
  return {
    origin: () => new URL(base()).origin,
    /** The token rides in the fragment: no server log, proxy or Referer header ever sees it. */
    invitation: (token: string) => `${base()}/dashboard/invitation#${token}`,
  }
}
