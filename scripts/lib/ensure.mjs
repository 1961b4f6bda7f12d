// Bootstrapping helpers shared by scripts/test.mjs and scripts/start.mjs.
// A fresh CI machine may have only Node and npm, so everything the tests and the
// server need beyond that is installed from here. Plain Node, no dependencies:
// this runs before `pnpm install`.

import { spawnSync } from 'node:child_process'
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildStamp } from './fresh.mjs'

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

/** The manifests pnpm installs from: the lockfile, the workspace's and every project's package.json. */
function manifests() {
  const projects = ['demo', 'e2e', ...readdirSync(path.join(repoRoot, 'packages')).map((name) => path.join('packages', name))]
  return ['pnpm-lock.yaml', 'pnpm-workspace.yaml', 'package.json', ...projects.map((project) => path.join(project, 'package.json'))]
}

/**
 * node_modules is stale when the lockfile or a manifest changed after pnpm last wrote it (a pull, a branch
 * switch, a dependency added by hand): then install what they say.
 */
const INSTALLED_STAMP = path.join(repoRoot, 'node_modules', '.till', 'installed')

function nodeModulesState() {
  const pnpmWroteAt = mtimeMs(path.join(repoRoot, 'node_modules', '.modules.yaml'))
  if (pnpmWroteAt === undefined) return 'missing'
  // pnpm leaves its state file alone when it finds nothing to do; the stamp says an install ran since.
  const installedAt = Math.max(pnpmWroteAt, mtimeMs(INSTALLED_STAMP) ?? 0)
  const changedAt = Math.max(...manifests().map((file) => mtimeMs(path.join(repoRoot, file)) ?? 0))
  return changedAt > installedAt ? 'stale' : 'fresh'
}

/** Installs what the lockfile says when it or a manifest changed since the last install. `quiet` shows pnpm's output only if it fails. */
export function installDependencies({ quiet = false } = {}) {
  const state = nodeModulesState()
  // Nothing changed since pnpm last installed: nothing to do, and nothing to print.
  if (!isCI() && state === 'fresh') return
  log(`installing dependencies from the lockfile (${isCI() ? 'CI' : `node_modules ${state}`})`)
  const pnpm = (args) => (quiet ? runQuietly('pnpm', args) : run('pnpm', args))
  try {
    pnpm(['install', '--frozen-lockfile'])
  } catch (error) {
    // In CI a lockfile that does not match package.json is a real error.
    if (isCI()) throw error
    log('the lockfile does not match package.json; running a normal install that updates it')
    pnpm(['install', '--prefer-offline'])
  }
  mkdirSync(path.dirname(INSTALLED_STAMP), { recursive: true })
  writeFileSync(INSTALLED_STAMP, `${new Date().toISOString()}\n`)
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

/** Runs a command and shows its output only if it fails: a build that works needs no fifteen lines. */
function runQuietly(command, args) {
  const result = spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (result.error) throw new Error(`could not run ${command}: ${result.error.message}`)
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout}${result.stderr}`)
    throw new Error(`\`${[command, ...args].join(' ')}\` exited with code ${result.status}`)
  }
}

/** Every workspace package with a build, by folder. */
function builtPackages() {
  const dir = path.join(repoRoot, 'packages')
  return readdirSync(dir).filter((name) => {
    try {
      return Boolean(JSON.parse(readFileSync(path.join(dir, name, 'package.json'), 'utf8')).scripts?.build)
    } catch {
      return false
    }
  })
}

const packagesBuild = buildStamp(path.join(repoRoot, 'node_modules', '.till', 'packages-built'), [
  path.join(repoRoot, 'packages'),
  path.join(repoRoot, 'tsconfig.base.json'),
  path.join(repoRoot, 'pnpm-lock.yaml'),
])

/**
 * Builds the packages into their dist/ folders: the workspace uses them as a user's project would, through
 * their exports (docs/decisions/0015), and `till` runs the service's (docs/decisions/0027). Skipped when no
 * source changed since the last build and every package's dist/ is there. `quiet` shows the build's output
 * only if it fails.
 */
export function buildPackages({ quiet = false } = {}) {
  const missing = builtPackages().filter((name) => !existsSync(path.join(repoRoot, 'packages', name, 'dist')))
  if (missing.length === 0 && packagesBuild.isFresh()) {
    if (!quiet) log('packages unchanged since their last build')
    return
  }
  log('building the packages (pnpm build)')
  packagesBuild.build(() =>
    quiet ? runQuietly('pnpm', ['run', 'build']) : run('pnpm', ['run', 'build'], { stdio: ['ignore', 'inherit', 'inherit'] }),
  )
}
