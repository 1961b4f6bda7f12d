// `npm test`: installs what the tests need, runs every suite, and ends with one
// line `N passed, N failed[, N skipped]` summed over all suites. Exits non-zero
// when anything failed or a suite could not run.

import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildPackages, ensureChromium, ensurePnpm, installDependencies, log, repoRoot } from './lib/ensure.mjs'
import { PUBLIC_PACKAGES } from './lib/kit.mjs'

/** @typedef {{ passed: number; failed: number; skipped: number }} Counts */

/** The child currently running, so a SIGTERM can be passed on to it. */
let current

/**
 * Runs a command with inherited stdio and resolves with its exit code (or 1 if killed or unstartable).
 * `env` adds variables to this process's environment.
 */
function runChild(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    })
    current = child
    child.once('error', (error) => {
      log(`could not run ${command}: ${error.message}`)
      current = undefined
      resolve(1)
    })
    child.once('close', (code) => {
      current = undefined
      resolve(code ?? 1)
    })
  })
}

/**
 * Each public package, packed as npm would publish it: publint (exports, files, fields) and
 * arethetypeswrong (do its types resolve as its JavaScript does; ESM only, so CommonJS resolution is not
 * asked for: docs/decisions/0015). One count per package and tool, and one for the elements' SRI hash.
 */
/** @returns {Promise<Counts>} */
async function packages() {
  const counts = { passed: 0, failed: 0, skipped: 0 }
  for (const name of PUBLIC_PACKAGES) {
    const dir = `packages/${name}`
    for (const args of [
      ['publint', dir],
      ['attw', '--pack', dir, '--profile', 'esm-only', '--format', 'ascii'],
    ]) {
      const ok = (await runChild('pnpm', ['exec', ...args])) === 0
      counts[ok ? 'passed' : 'failed'] += 1
      if (!ok) log(`${args[0]} found problems in @till/${name}`)
    }
  }
  counts[elementsIntegrityListed() ? 'passed' : 'failed'] += 1
  counts[kitListedInReadme() ? 'passed' : 'failed'] += 1
  return counts
}

/** The README's Install section names the kit: every public package, and no other. */
function kitListedInReadme() {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8')
  const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('\n## ', readme.indexOf('## Install') + 1))
  const named = [...new Set([...install.matchAll(/`@till\/([a-z-]+)`/g)].map((match) => match[1]))].sort()
  const listed = JSON.stringify(named) === JSON.stringify([...PUBLIC_PACKAGES].sort())
  if (!listed) log(`README.md's Install section names ${named.join(', ')}; the kit is ${PUBLIC_PACKAGES.join(', ')}`)
  return listed
}

/** The elements' README gives the drop-in bundle's SRI hash: it must be the built file's. */
function elementsIntegrityListed() {
  const bundle = readFileSync(path.join(repoRoot, 'packages/elements/dist/pay-elements.js'))
  const integrity = `sha384-${createHash('sha384').update(bundle).digest('base64')}`
  const listed = readFileSync(path.join(repoRoot, 'packages/elements/README.md'), 'utf8').includes(`integrity="${integrity}"`)
  if (!listed) log(`packages/elements/README.md does not give the bundle's integrity ${integrity}`)
  return listed
}

/** A root script that passes or fails as a whole: one count. */
async function script(name) {
  const code = await runChild('pnpm', ['run', name])
  return code === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 }
}

/**
 * Runs a test tool that writes a JSON report to the file it is given, and counts that report. A run that
 * wrote no report, or exited non-zero with no failed test (a file that fails to load, a global setup that
 * throws), counts as one failure.
 * @param {string} tool
 * @param {(report: string) => { args: string[]; env?: Record<string, string>; packageDir?: string }} invocation
 * @param {(json: any) => Counts} count
 * @returns {Promise<Counts>}
 */
async function runReported(tool, invocation, count) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `till-${tool}-`))
  const report = path.join(dir, 'report.json')
  try {
    const { args, env, packageDir } = invocation(report)
    // `packageDir`: run in the package whose own bin the tool is (pnpm exec would look at the root's).
    const code = await runChild('pnpm', ['exec', ...(packageDir ? ['--dir', packageDir] : []), tool, ...args], env)
    let json
    try {
      json = JSON.parse(readFileSync(report, 'utf8'))
    } catch {
      log(`${tool} exited with code ${code} and wrote no report`)
      return { passed: 0, failed: 1, skipped: 0 }
    }
    const counts = count(json)
    if (code !== 0 && counts.failed === 0) {
      log(`${tool} exited with code ${code} although no test failed`)
      counts.failed = 1
    }
    return counts
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** All vitest projects (contract, template minifier, checkout page, service, client, express, webview, devchain, demo) in one run. */
const vitest = () =>
  runReported(
    'vitest',
    (report) => ({ args: ['run', '--reporter=default', '--reporter=json', `--outputFile=${report}`] }),
    (json) => {
      const counts = {
        passed: json.numPassedTests ?? 0,
        failed: json.numFailedTests ?? 0,
        skipped: (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0),
      }
      // A test file that fails to load has no failed tests of its own; count the file.
      for (const file of json.testResults ?? []) {
        const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed').length
        if (file.status === 'failed' && failedTests === 0) counts.failed += 1
      }
      return counts
    },
  )

/** The elements' tests in Chromium (web-test-runner); its JSON reporter is packages/elements/test/json-reporter.mjs. */
const elements = () =>
  runReported(
    'wtr',
    (report) => ({
      args: ['--config', 'web-test-runner.config.mjs'],
      env: { TILL_WTR_REPORT: report },
      packageDir: 'packages/elements',
    }),
    (json) => ({ passed: json.passed ?? 0, failed: json.failed ?? 0, skipped: json.skipped ?? 0 }),
  )

/** The Playwright specs in e2e/, in the Chromium that CHROMIUM_PATH names (set in main). */
const e2e = () =>
  runReported(
    'playwright',
    (report) => ({ args: ['test'], env: { PLAYWRIGHT_JSON_OUTPUT_FILE: report } }),
    (json) => {
      const stats = json.stats ?? {}
      // A flaky test failed first and passed on a retry.
      return { passed: (stats.expected ?? 0) + (stats.flaky ?? 0), failed: stats.unexpected ?? 0, skipped: stats.skipped ?? 0 }
    },
  )

/** A shop outside the workspace installs the kit's tarballs, type-checks and pays (scripts/consumer/run.mjs). */
const consumer = () =>
  runReported(
    'node',
    (report) => ({ args: ['scripts/consumer/run.mjs'], env: { TILL_CONSUMER_REPORT: report } }),
    (json) => ({ passed: json.passed ?? 0, failed: json.failed ?? 0, skipped: 0 }),
  )

/**
 * Each suite resolves with its counts and must not throw for test failures.
 * @type {{ name: string; run: () => Promise<Counts> }[]}
 */
const suites = [
  { name: 'typecheck', run: () => script('typecheck') },
  // Biome: the formatting and the lint rules of biome.json, over the whole repository.
  { name: 'lint', run: () => script('lint') },
  { name: 'packages', run: packages },
  { name: 'vitest', run: vitest },
  { name: 'elements', run: elements },
  { name: 'e2e', run: e2e },
  { name: 'consumer', run: consumer },
]

function format({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`
}

async function main() {
  // Ctrl-C reaches the children through the terminal's process group; a SIGTERM
  // sent to this process alone (a CI timeout) has to be passed on.
  process.on('SIGTERM', () => current?.kill('SIGTERM'))
  process.on('SIGINT', () => {})

  try {
    ensurePnpm()
    installDependencies()
    buildPackages()
    // The e2e suite's browser; Playwright's config reads CHROMIUM_PATH.
    process.env.CHROMIUM_PATH = ensureChromium()
    log(`Chromium at ${process.env.CHROMIUM_PATH}`)
  } catch (error) {
    log(`setup failed: ${error instanceof Error ? error.message : String(error)}`)
    console.log(format({ passed: 0, failed: 1, skipped: 0 }))
    process.exitCode = 1
    return
  }

  const total = { passed: 0, failed: 0, skipped: 0 }
  const lines = []
  for (const suite of suites) {
    log(`running ${suite.name}`)
    const started = Date.now()
    let counts
    try {
      counts = await suite.run()
    } catch (error) {
      log(`${suite.name} could not run: ${error instanceof Error ? error.message : String(error)}`)
      counts = { passed: 0, failed: 1, skipped: 0 }
    }
    lines.push(`[till] ${suite.name}: ${format(counts)} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
    total.passed += counts.passed
    total.failed += counts.failed
    total.skipped += counts.skipped
  }

  console.log('')
  for (const line of lines) console.log(line)
  console.log(format(total))
  process.exitCode = total.failed > 0 ? 1 : 0
}

await main()
