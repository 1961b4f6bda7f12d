// The published OpenAPI document, pinned: every path, operation, parameter, response and schema, as the
// sandbox serves it (a superset of the live document). A refactor of how the document is built (issue 21's
// operations table) must leave this file unchanged; a change to the API changes it on purpose, in review:
// run `pnpm exec vitest run src/openapi.pin.test.ts -u` in packages/contract and read the diff.
import { describe, expect, it } from 'vitest'
import { createOpenApiDocument } from './openapi.ts'

/** The document in meaning: object keys sorted, so the order a builder writes them in does not count. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => [key, canonical(item)]),
  )
}

describe('the OpenAPI document', () => {
  it('is the pinned one', async () => {
    const document = createOpenApiDocument({ sandbox: true })
    await expect(`${JSON.stringify(canonical(document), null, 2)}\n`).toMatchFileSnapshot('./openapi.pin.json')
  })
})
