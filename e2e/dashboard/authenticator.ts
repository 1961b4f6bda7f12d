// Chromium's CDP WebAuthn domain: a virtual authenticator for the dashboard's passkey stories.
import type { Page } from '@playwright/test'

/** A platform authenticator in the browser, as a laptop's fingerprint reader is (Chromium's CDP WebAuthn). */
export async function withAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
}
