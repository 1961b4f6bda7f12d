// Runs once after the whole run, also after Ctrl-C: the demo stack's state file (playwright.config.ts)
// holds a sandbox API key and must not outlive the run, even when the stack itself was killed before it
// could remove the file.
import { rmSync } from 'node:fs'

export default function removeShopState(): void {
  const file = process.env.TILL_E2E_SHOP_STATE
  if (file) rmSync(file, { force: true })
}
