// The guides show these files as they are: docs/merchant-integration.md the pay-button example (which
// e2e/shop/example.spec.ts runs), docs/testing-your-checkout.md the Playwright example (which the
// readme-example Playwright project runs). This keeps what readers copy identical to what the suite runs.
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'

const guide = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8')

describe('docs/merchant-integration.md’s pay-button example', () => {
  test.each(['pay-button/index.html', 'pay-button/thanks.html', 'pay-button/server.ts'])('shows %s exactly as it is', (file) => {
    const source = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8')
    const fence = file.endsWith('.ts') ? 'ts' : 'html'
    expect(guide('merchant-integration.md')).toContain(`\`\`\`${fence}\n${source}\`\`\``)
  })
})

describe('docs/testing-your-checkout.md’s Playwright example', () => {
  test('shows playwright/checkout.spec.ts exactly as it is', () => {
    const source = readFileSync(new URL('./playwright/checkout.spec.ts', import.meta.url), 'utf8')
    expect(guide('testing-your-checkout.md')).toContain(`\`\`\`ts\n${source}\`\`\``)
  })
})
