// axe-core on a page of the checkout or the shop, under Playwright's paused clock.
import { AxeBuilder } from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/**
 * axe schedules its work on timers; under a paused Playwright clock they only fire when the clock moves,
 * so it is moved a millisecond at a time until axe is done: far less than the 3-second countdown.
 */
export async function expectNoAxeViolations(page: Page, screen: string) {
  let done = false
  // Settled into a value at once, so a failing analysis is reported below rather than as a stray rejection.
  // Legacy mode runs in the page itself; the default opens a helper page in the same context, whose
  // closing would race the clock calls below.
  const analysis = new AxeBuilder({ page })
    .setLegacyMode(true)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze()
    .then(
      (results) => ({ results }),
      (error: unknown) => ({ error }),
    )
    .finally(() => {
      done = true
    })
  for (let movedMs = 0; !done && movedMs < 1_000; movedMs++) await page.clock.runFor(1)
  const outcome = await analysis
  if ('error' in outcome) throw outcome.error
  const { results } = outcome
  // axe ran its rules on this screen: an empty violation list from an analysis of nothing proves nothing.
  expect(results.passes.length, screen).toBeGreaterThan(10)
  expect(
    results.violations.map(
      (violation) => `${screen}: ${violation.id} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    ),
  ).toEqual([])
}
