// How the test suites launch Chromium (Playwright's e2e and web-test-runner's component tests): Debian's
// browser by default, CHROMIUM_PATH to use another, and the flags this kind of machine needs.
import { existsSync } from 'node:fs'

/**
 * The Chromium to launch: CHROMIUM_PATH, else /usr/bin/chromium; undefined when neither exists, so that
 * Playwright falls back to a browser of its own (`pnpm exec playwright install chromium`).
 * @returns {string | undefined}
 */
export function chromiumExecutable() {
  return [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find(
    (candidate) => candidate !== undefined && candidate !== '' && existsSync(candidate),
  )
}

/** @type {readonly string[]} */
export const CHROMIUM_FLAGS = [
  // Root in a container: Chromium's sandbox needs user namespaces that are usually not there.
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** Playwright's `launchOptions` for that Chromium. */
export function chromiumLaunchOptions() {
  const executablePath = chromiumExecutable()
  return { ...(executablePath ? { executablePath } : {}), args: [...CHROMIUM_FLAGS] }
}
