// Thin on purpose: the e2e suite (and @playwright/test) arrive with the checkout page and the demo shop.
// Then this file starts the service, the demo backend and the shop with readiness checks, and points
// Playwright at Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium) with the sandbox-less flags.
export default {
  testDir: './e2e',
  fullyParallel: false,
  forbidOnly: true,
}
