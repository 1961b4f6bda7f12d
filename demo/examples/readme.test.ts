// README.md's "Add a pay button to your own store" shows these files; e2e/shop/example.spec.ts runs them.
// This keeps what readers copy identical to what the suite runs.
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

describe('the README’s pay-button example', () => {
  test.each(['pay-button/index.html', 'pay-button/thanks.html', 'pay-button/server.ts'])('shows %s exactly as it is', (file) => {
    const source = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8')
    const fence = file.endsWith('.ts') ? 'ts' : 'html'
    expect(readme).toContain(`\`\`\`${fence}\n${source}\`\`\``)
  })
})

describe('the README’s Playwright example', () => {
  test('shows playwright/checkout.spec.ts exactly as it is', () => {
    const source = readFileSync(new URL('./playwright/checkout.spec.ts', import.meta.url), 'utf8')
    expect(readme).toContain(`\`\`\`ts\n${source}\`\`\``)
  })
})
