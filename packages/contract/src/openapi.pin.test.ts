// The published OpenAPI document, pinned: every path, operation, parameter, response and schema, as the
// sandbox serves it (a superset of the live document). A refactor of how the document is built (issue 21's
// operations table) must leave this file unchanged; a change to the API changes it on purpose, in review:
// run `pnpm exec vitest run src/openapi.pin.test.ts -u` in packages/contract and read the diff.
import { describe, expect, it } from 'vitest'
import { createOpenApiDocument } from './openapi.ts'

describe('the OpenAPI document', () => {
  it('is the pinned one', async () => {
    const document = createOpenApiDocument({ sandbox: true })
    await expect(`${JSON.stringify(document, null, 2)}\n`).toMatchFileSnapshot('./openapi.pin.json')
  })
})
