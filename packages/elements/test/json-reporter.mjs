// A web-test-runner reporter that writes `{ passed, failed, skipped }` to a JSON file, for scripts/test.mjs
// (wtr has no JSON reporter of its own). A session (test file × browser) that failed without a failed test
// of its own (it did not load, or threw outside a test) counts as one failure.

import { writeFileSync } from 'node:fs'

/** @typedef {{ passed: number; failed: number; skipped: number }} Counts */

/** @param {import('@web/test-runner').TestSuiteResult} suite @param {Counts} counts */
function walk(suite, counts) {
  for (const test of suite.tests) {
    if (test.skipped) counts.skipped += 1
    else if (test.passed) counts.passed += 1
    else counts.failed += 1
  }
  for (const child of suite.suites) walk(child, counts)
}

/**
 * @param {string | undefined} file where to write; no file, no report
 * @returns {import('@web/test-runner').Reporter}
 */
export function jsonReporter(file) {
  return {
    stop({ sessions }) {
      if (!file) return
      /** @type {Counts} */
      const counts = { passed: 0, failed: 0, skipped: 0 }
      for (const session of sessions) {
        const failedBefore = counts.failed
        if (session.testResults) walk(session.testResults, counts)
        if (!session.passed && counts.failed === failedBefore) counts.failed += 1
      }
      writeFileSync(file, `${JSON.stringify(counts)}\n`)
    },
  }
}
