import type { AppConfig } from '../app-config.ts'

/**
 * Where the dashboard is: `<public url>/dashboard/`, and the origin its requests must come from. A loopback
 * address is named `localhost`: passkeys (WebAuthn) take a host name, never an IP address, and browsers treat
 * `http://localhost` as secure, as they do the address it stands for.
 */
export function dashboardUrls(config: Pick<AppConfig, 'checkoutUrl' | 'publicUrl'>) {
  const base = () => {
    const url = new URL(config.publicUrl?.() ?? new URL(config.checkoutUrl()).origin)
    if (url.hostname === '127.0.0.1' || url.hostname === '[::1]') url.hostname = 'localhost'
    return url.href.replace(/\/+$/, '')
  }
  return {
    origin: () => new URL(base()).origin,
    /** The passkeys' relying party: the dashboard's host name. */
    rpId: () => new URL(base()).hostname,
    /** The token rides in the fragment: no server log, proxy or Referer header ever sees it. */
    invitation: (token: string) => `${base()}/dashboard/invitation#${token}`,
  }
}
