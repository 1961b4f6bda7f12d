// docs/dashboard.md shows these, taken by the e2e run and overwritten by every run: what staff see today.
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'

const SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))

/** The whole page at the viewport's width, as `docs/screenshots/<name>-<width>.png`. */
export async function shoot(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 1280
  await page.screenshot({ path: `${SCREENSHOTS}${name}-${width}.png`, fullPage: true, animations: 'disabled', caret: 'hide' })
}
