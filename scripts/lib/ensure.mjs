// Bootstrapping helpers shared by scripts/test.mjs and scripts/start.mjs.
// A fresh CI machine may have only Node and npm, so everything the tests and the
// server need beyond that is installed from here. Plain Node, no dependencies:
// this runs before `pnpm install`.

import { spawnSync } from 'node:child_process'
import { accessSync, constants, existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const PNPM_VERSION = '12.21.0'
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

export function log(message) {
  console.log(`[till] ${message}`)
}

export function isCI() {
  const ci = process.env.CI
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false'
}

export function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0
}

/** Runs a command with inherited stdio; throws if it cannot start or exits non-zero. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: repoRoot, ...options })
  if (result.error) throw new Error(`could not run ${command}: ${result.error.message}`)
  if (result.status !== 0) {
    const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.status}`
    throw new Error(`\`${[command, ...args].join(' ')}\` ${how}`)
  }
}

function pnpmVersion() {
  const result = spawnSync('pnpm', ['--version'], { cwd: repoRoot, encoding: 'utf8' })
  if (result.error || result.status !== 0) return undefined
  return result.stdout.trim()
}

/**
 * Makes `pnpm` on PATH the pinned version. npm rather than corepack, because
 * corepack cannot verify pnpm 12's signatures here without COREPACK_INTEGRITY_KEYS=0.
 */
export function ensurePnpm() {
  const found = pnpmVersion()
  if (found === PNPM_VERSION) return
  log(found ? `pnpm ${found} found, installing pnpm ${PNPM_VERSION}` : `pnpm not found, installing pnpm ${PNPM_VERSION}`)
  try {
    run('npm', ['install', '--global', `pnpm@${PNPM_VERSION}`])
  } catch (error) {
    throw new Error(
      `could not install pnpm ${PNPM_VERSION} (${error.message}). ` +
        `Install it yourself with \`npm install --global pnpm@${PNPM_VERSION}\` ` +
        '(with a user-writable npm prefix if the global one needs root).',
    )
  }
  const now = pnpmVersion()
  if (now !== PNPM_VERSION) {
    throw new Error(
      `installed pnpm ${PNPM_VERSION}, but \`pnpm --version\` still says ${now ?? 'nothing'}: ` +
        "another pnpm comes first on PATH, or npm's global bin directory is not on PATH.",
    )
  }
}

function mtimeMs(file) {
  try {
    return statSync(file).mtimeMs
  } catch {
    return undefined
  }
}

/**
 * node_modules is stale when the lockfile changed after pnpm last wrote it
 * (a pull or a branch switch): then install exactly what the lockfile says.
 */
function nodeModulesState() {
  const installedAt = mtimeMs(path.join(repoRoot, 'node_modules', '.modules.yaml'))
  if (installedAt === undefined) return 'missing'
  const lockfileAt = mtimeMs(path.join(repoRoot, 'pnpm-lock.yaml')) ?? 0
  return lockfileAt > installedAt ? 'stale' : 'fresh'
}

export function installDependencies() {
  const state = nodeModulesState()
  if (isCI() || state !== 'fresh') {
    log(`installing dependencies from the lockfile (${isCI() ? 'CI' : `node_modules ${state}`})`)
    try {
      run('pnpm', ['install', '--frozen-lockfile'])
      return
    } catch (error) {
      // In CI a lockfile that does not match package.json is a real error.
      if (isCI()) throw error
      log('the lockfile does not match package.json; running a normal install that updates it')
    }
  }
  run('pnpm', ['install', '--prefer-offline'])
}

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK)
    return statSync(file).isFile()
  } catch {
    return false
  }
}

const DEBIAN_CHROMIUM = '/usr/bin/chromium'

/**
 * Returns the Chromium the e2e suite drives: CHROMIUM_PATH, else Debian's /usr/bin/chromium, installed
 * with apt-get when missing (as root). Playwright's own browser downloads are not used: on Debian they
 * are the fallback for machines where apt cannot install Chromium.
 */
export function ensureChromium() {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv) {
    if (isExecutable(fromEnv)) return fromEnv
    log(`CHROMIUM_PATH=${fromEnv} is not an executable file; looking for ${DEBIAN_CHROMIUM}`)
  }
  if (isExecutable(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM

  const instructions =
    'Install Chromium (`sudo apt-get install chromium` on Debian, `sudo apt-get install chromium-browser` on ' +
    'Ubuntu) or set CHROMIUM_PATH to a Chromium or Chrome executable; elsewhere, ' +
    '`pnpm exec playwright install chromium` downloads the browser Playwright was built for.'
  if (!isRoot()) throw new Error(`Chromium not found. ${instructions}`)
  if (!existsSync('/usr/bin/apt-get')) {
    throw new Error(`Chromium not found, and this is not a Debian-like system. ${instructions}`)
  }

  log('Chromium not found, installing it with apt-get')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  run('apt-get', ['update'], { env, stdio: ['ignore', 'inherit', 'inherit'] })
  run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  if (!isExecutable(DEBIAN_CHROMIUM)) {
    throw new Error(`apt-get installed chromium, but ${DEBIAN_CHROMIUM} is not there. ${instructions}`)
  }
  return DEBIAN_CHROMIUM
}

/**
 * Builds the public packages into their dist/ folders: the workspace uses them as a user's project would,
 * through their exports (docs/decisions/0015). TypeScript 7 takes a second or two.
 */
export function buildPackages() {
  log('building the public packages (pnpm build)')
  run('pnpm', ['run', 'build'], { stdio: ['ignore', 'inherit', 'inherit'] })
}
