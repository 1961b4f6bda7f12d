import { z } from 'zod'

// Patterns are taken from the CAIP-2, CAIP-10 and CAIP-19 specifications verbatim, so that any id a
// chain-agnostic client produces is accepted and nothing else is.
const NAMESPACE = '[-a-z0-9]{3,8}'
const REFERENCE = '[-_a-zA-Z0-9]{1,32}'
const ACCOUNT_ADDRESS = '[-.%a-zA-Z0-9]{1,128}'
const ASSET_NAMESPACE = '[-a-z0-9]{3,8}'
const ASSET_REFERENCE = '[-.%a-zA-Z0-9]{1,128}'
const TOKEN_ID = '[-.%a-zA-Z0-9]{1,78}'

const CAIP2_SOURCE = `${NAMESPACE}:${REFERENCE}`
const CAIP19_SOURCE = `${CAIP2_SOURCE}/${ASSET_NAMESPACE}:${ASSET_REFERENCE}(/${TOKEN_ID})?`

export const CAIP2_PATTERN = new RegExp(`^${CAIP2_SOURCE}$`)
export const CAIP10_PATTERN = new RegExp(`^${CAIP2_SOURCE}:${ACCOUNT_ADDRESS}$`)
export const CAIP19_PATTERN = new RegExp(`^${CAIP19_SOURCE}$`)
export const TOKEN_UNIT_PATTERN = new RegExp(`^caip19/${CAIP19_SOURCE}$`)

export const Caip2 = z
  .string()
  .regex(CAIP2_PATTERN, { error: 'must be a CAIP-2 chain id such as eip155:1' })
  .meta({ id: 'Caip2', description: 'CAIP-2 blockchain id, `<namespace>:<reference>`, e.g. `eip155:1`.' })

export const Caip10 = z
  .string()
  .regex(CAIP10_PATTERN, { error: 'must be a CAIP-10 account id such as eip155:1:0xab16a96d359ec26a11e2c2b3d8f8b8942d5bfcdb' })
  .meta({
    id: 'Caip10',
    description: 'CAIP-10 account id, `<namespace>:<reference>:<address>`.',
  })

export const Caip19 = z
  .string()
  .regex(CAIP19_PATTERN, { error: 'must be a CAIP-19 asset id such as eip155:1/erc20:0x6b175474e89094c44da98b954eedeac495271d0f' })
  .meta({
    id: 'Caip19',
    description: 'CAIP-19 asset id, `<chain id>/<asset namespace>:<asset reference>[/<token id>]`.',
  })

export const TokenUnit = z
  .string()
  // Aborting lets the Amount union report the token branch alone once the prefix has picked it.
  .regex(TOKEN_UNIT_PATTERN, { error: 'must be caip19/ followed by a CAIP-19 asset id', abort: true })
  .meta({ id: 'TokenUnit', description: 'Unit of a token amount: `caip19/<CAIP-19 asset id>`.' })

export type Caip2 = z.infer<typeof Caip2>
export type Caip10 = z.infer<typeof Caip10>
export type Caip19 = z.infer<typeof Caip19>
export type TokenUnit = z.infer<typeof TokenUnit>
