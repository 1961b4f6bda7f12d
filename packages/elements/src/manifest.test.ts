import { expect } from '@open-wc/testing'
import { command } from '../test/browser.ts'

describe('custom-elements.json', () => {
  it('is what the analyzer generates from the source (else: pnpm --filter @till/elements run manifest)', async () => {
    expect(await command('till-manifest-fresh')).to.deep.equal({ fresh: true })
  })
})
