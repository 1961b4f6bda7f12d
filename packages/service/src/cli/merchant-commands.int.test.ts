import { beforeEach, describe, expect, it } from 'vitest'
import { type Account, createAccount, useTestDatabase } from '../../test/fixtures.ts'
import { adminCommandRunner } from './admin-command.test-helper.ts'

const ctx = useTestDatabase()

let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
})

const till = adminCommandRunner(ctx)

describe('till merchant update', () => {
  const base = 'eip155:8453:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'

  it('changes the merchant by the API’s rules, receiving accounts included', async () => {
    const out = await till('merchant update', '--merchant', account.merchantId, '--name', 'Till Tea', '--settlement-addresses', base)
    expect(out).toBe(`Merchant ${account.merchantId} (Till Tea, shop@example.com)\n  receives on ${base}`)
    const json = JSON.parse(await till('merchant update', '--merchant', account.merchantId, '--settlement-addresses', '', '--json'))
    expect(json.merchant).toMatchObject({ name: 'Till Tea', settlementAddresses: [] })
  })

  it('refuses an address that is not checksummed, and changes nothing', async () => {
    await expect(
      till('merchant update', '--merchant', account.merchantId, '--name', 'Changed', '--settlement-addresses', base.toLowerCase()),
    ).rejects.toThrow(`settlementAddresses[0]: is not EIP-55 checksummed; write it as ${base}`)
    const [row] = await ctx.tdb.db.query<{ name: string }>('SELECT name FROM merchants WHERE id = $1', [account.merchantId])
    expect(row?.name).toBe('Shop')
  })

  it('says so when the merchant does not exist', async () => {
    await expect(till('merchant update', '--merchant', 'mer_nobody', '--name', 'x')).rejects.toThrow('No merchant mer_nobody.')
  })
})
