// `till user invite`: the operator makes a partner's first dashboard user, who opens the printed link.
import { describe, expect, it } from 'vitest'
import { createAccount, useTestDatabase } from '../../test/fixtures.ts'
import { dashboardPeople } from '../dashboard/index.ts'
import { systemClock } from '../core/clock.ts'
import { adminCommandRunner } from './admin-command.test-helper.ts'

const ctx = useTestDatabase()
const till = adminCommandRunner(ctx)

describe('till user invite', () => {
  it('prints a single-use link under the public URL, whose token the invitation page takes', async () => {
    const account = await createAccount(ctx.tdb.db)
    const printed = await till(
      'user invite',
      ...['--partner', account.partnerId, '--email', 'Owner@Shop.Example', '--role', 'owner', '--public-url', 'https://till.shop.example/'],
    )
    const [said, link] = printed.split('\n')
    expect(said).toMatch(/^Invitation for owner@shop\.example \(owner\), single-use, until \d{4}-\d\d-\d\dT/)
    expect(link).toMatch(/^https:\/\/till\.shop\.example\/dashboard\/invitation#[0-9a-z]{52}$/)
    const invitation = await dashboardPeople({ db: ctx.tdb.db, clock: systemClock }).invitation(link?.split('#')[1] ?? '')
    expect(invitation).toMatchObject({ email: 'owner@shop.example', role: 'owner', partnerId: account.partnerId, merchantId: null })
  })

  it('limits the user to a merchant of the partner, and refuses another partner’s', async () => {
    const account = await createAccount(ctx.tdb.db)
    const other = await createAccount(ctx.tdb.db)
    const args = [
      '--partner',
      account.partnerId,
      '--email',
      'clerk@shop.example',
      '--role',
      'viewer',
      '--public-url',
      'https://till.shop.example',
    ]
    const json = JSON.parse(await till('user invite', ...args, '--merchant', account.merchantId, '--json'))
    expect(json).toMatchObject({ email: 'clerk@shop.example', role: 'viewer' })
    await expect(till('user invite', ...args, '--merchant', other.merchantId)).rejects.toThrow(`has no merchant ${other.merchantId}`)
    await expect(till('user invite', ...args.slice(0, 4), '--role', 'boss', '--public-url', 'https://x.example')).rejects.toThrow(
      /owner, admin, viewer/,
    )
  })
})
