// `npm test`: installs what the tests need, runs every suite, and ends with one
// line `N passed, N failed[, N skipped]` summed over all suites. Exits non-zero
// when anything failed or a suite could not run.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ensureChromium,
  ensurePnpm,
  ensurePostgresBinaries,
  installDependencies,
  log,
  repoRoot,
} from './lib/ensure.mjs';

/** @typedef {{ passed: number; failed: number; skipped: number }} Counts */

/** The child currently running, so a SIGTERM can be passed on to it. */
let current;

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
    });
    current = child;
    child.once('error', (error) => {
      log(`could not run ${command}: ${error.message}`);
      current = undefined;
      resolve(1);
    });
    child.once('close', (code) => {
      current = undefined;
      resolve(code ?? 1);
    });
  });
}

/** @returns {Promise<Counts>} */
async function typecheck() {
  const code = await runChild('pnpm', ['run', 'typecheck']);
  return code === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 };
}

/** All vitest projects (contract, service on PGlite, service-pg on PostgreSQL) in one run. */
async function vitest() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'till-vitest-'));
  const report = path.join(dir, 'vitest.json');
  try {
    const code = await runChild('pnpm', [
      'exec',
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${report}`,
    ]);
    let json;
    try {
      json = JSON.parse(readFileSync(report, 'utf8'));
    } catch {
      log(`vitest exited with code ${code} and wrote no report`);
      return { passed: 0, failed: 1, skipped: 0 };
    }
    const counts = {
      passed: json.numPassedTests ?? 0,
      failed: json.numFailedTests ?? 0,
      skipped: (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0),
    };
    // A test file that fails to load has no failed tests of its own; count the file.
    for (const file of json.testResults ?? []) {
      const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed').length;
      if (file.status === 'failed' && failedTests === 0) counts.failed += 1;
    }
    // Unhandled errors or a failed global setup fail the run without failing a test.
    if (code !== 0 && counts.failed === 0) {
      log(`vitest exited with code ${code} although no test failed`);
      counts.failed = 1;
    }
    return counts;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The Playwright specs in e2e/, in the Chromium that CHROMIUM_PATH names (set in main). */
async function e2e() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'till-e2e-'));
  const report = path.join(dir, 'playwright.json');
  try {
    const code = await runChild('pnpm', ['exec', 'playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_FILE: report });
    let json;
    try {
      json = JSON.parse(readFileSync(report, 'utf8'));
    } catch {
      log(`playwright exited with code ${code} and wrote no report`);
      return { passed: 0, failed: 1, skipped: 0 };
    }
    const stats = json.stats ?? {};
    // A flaky test failed first and passed on a retry.
    const counts = {
      passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
      failed: stats.unexpected ?? 0,
      skipped: stats.skipped ?? 0,
    };
    // A spec that fails to load, a worker fixture or global setup that throws, `test.only` on CI, or no
    // tests at all fail the run without failing a test.
    if (code !== 0 && counts.failed === 0) {
      log(`playwright exited with code ${code} although no test failed`);
      counts.failed = 1;
    }
    return counts;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Each suite resolves with its counts and must not throw for test failures.
 * Later: web-test-runner suites go here.
 * @type {{ name: string; run: () => Promise<Counts> }[]}
 */
const suites = [
  { name: 'typecheck', run: typecheck },
  { name: 'vitest', run: vitest },
  { name: 'e2e', run: e2e },
];

function format({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed` + (skipped > 0 ? `, ${skipped} skipped` : '');
}

async function main() {
  // Ctrl-C reaches the children through the terminal's process group; a SIGTERM
  // sent to this process alone (a CI timeout) has to be passed on.
  process.on('SIGTERM', () => current?.kill('SIGTERM'));
  process.on('SIGINT', () => {});

  try {
    ensurePnpm();
    installDependencies();
    // An external database means no local server is started.
    if (!process.env.TILL_TEST_DATABASE_URL) log(`PostgreSQL programs in ${ensurePostgresBinaries()}`);
    // The e2e suite's browser; Playwright's config reads CHROMIUM_PATH.
    process.env.CHROMIUM_PATH = ensureChromium();
    log(`Chromium at ${process.env.CHROMIUM_PATH}`);
  } catch (error) {
    log(`setup failed: ${error instanceof Error ? error.message : String(error)}`);
    console.log(format({ passed: 0, failed: 1, skipped: 0 }));
    process.exitCode = 1;
    return;
  }

  const total = { passed: 0, failed: 0, skipped: 0 };
  const lines = [];
  for (const suite of suites) {
    log(`running ${suite.name}`);
    const started = Date.now();
    let counts;
    try {
      counts = await suite.run();
    } catch (error) {
      log(`${suite.name} could not run: ${error instanceof Error ? error.message : String(error)}`);
      counts = { passed: 0, failed: 1, skipped: 0 };
    }
    lines.push(`[till] ${suite.name}: ${format(counts)} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  }

  console.log('');
  for (const line of lines) console.log(line);
  console.log(format(total));
  process.exitCode = total.failed > 0 ? 1 : 0;
}

await main();
