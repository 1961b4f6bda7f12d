import type { CreateMerchantRequest, Merchant, UpdateMerchantRequest } from '@till/contract'
import type { Database, Queryable } from '../db/port.ts'
import type { Clock } from '../core/clock.ts'
import { ApiError, fieldError } from '../errors.ts'
import type { ImportedLogo, LogoImporter, LogoUrl } from '../logos/index.ts'
import { LogoRefused } from '../logos/index.ts'
import { accountStore } from '../accounts/index.ts'
import type { IdempotencyKeys } from '../http/idempotency.ts'
import { checkSettlementAddresses } from './settlement-addresses.ts'
import { merchantView } from './views.ts'

export type MerchantCreated = { merchant: Merchant; replayed: boolean }

/**
 * Creating and changing merchants (spec 4.5, 4.6): the one home of these rules, used by the API and by
 * `till merchant create` alike.
 */
export function merchantService(deps: {
  db: Database
  clock: Clock
  importLogo: LogoImporter
  idempotency: IdempotencyKeys
  logoUrl: LogoUrl
}) {
  /** The logo a request asks for: imported now, none (null), or unchanged (undefined). */
  async function logoOf(iconUrl: string | null | undefined): Promise<ImportedLogo | null | undefined> {
    if (iconUrl === undefined || iconUrl === null) return iconUrl
    try {
      return await deps.importLogo(iconUrl)
    } catch (error) {
      if (error instanceof LogoRefused) throw fieldError('iconUrl', error.message)
      throw error
    }
  }

  return {
    /** With an idempotency key (the API always has one), a repeated request replays the first answer. */
    async create(input: { partnerId: string; request: CreateMerchantRequest; idempotencyKey?: string }): Promise<MerchantCreated> {
      const { request, partnerId } = input
      const insert = async (tx: Queryable, logo: ImportedLogo | null | undefined) => {
        const record = await accountStore(tx).createMerchant({
          partnerId,
          name: request.merchantName,
          email: request.merchantEmail,
          logo: logo ?? null,
          now: deps.clock.now(),
        })
        return { status: 201, body: { merchant: merchantView(record, deps.logoUrl) } }
      }
      if (input.idempotencyKey === undefined) {
        const answer = await insert(deps.db, await logoOf(request.iconUrl))
        return { merchant: answer.body.merchant, replayed: false }
      }
      const answer = await deps.idempotency.run({
        partnerId,
        key: input.idempotencyKey,
        operation: 'merchants.create',
        request,
        prepare: () => logoOf(request.iconUrl),
        work: insert,
      })
      return { merchant: answer.body.merchant, replayed: answer.replayed }
    },

    /** The partner's merchants, newest first, as the API shows them. */
    async list(partnerId: string): Promise<Merchant[]> {
      return (await accountStore(deps.db).listMerchants(partnerId)).map((record) => merchantView(record, deps.logoUrl))
    },

    /** Refuses with 404 a merchant that is not the partner's, as every merchant route does. */
    async ownedBy(partnerId: string, merchantId: string): Promise<void> {
      const existing = await accountStore(deps.db).findMerchant(merchantId)
      if (!existing || existing.partnerId !== partnerId) throw merchantNotFound(merchantId)
    },

    /** Changes what the request names; a refused logo or an unknown merchant changes nothing. */
    async update(input: { partnerId: string; merchantId: string; request: UpdateMerchantRequest }): Promise<Merchant> {
      const { request } = input
      const accounts = accountStore(deps.db)
      const existing = await accounts.findMerchant(input.merchantId)
      if (!existing || existing.partnerId !== input.partnerId) throw merchantNotFound(input.merchantId)
      const settlementAddresses = request.settlementAddresses && checkSettlementAddresses(request.settlementAddresses)
      const logo = await logoOf(request.iconUrl)
      const record = await accounts.updateMerchant({
        partnerId: input.partnerId,
        merchantId: input.merchantId,
        changes: {
          ...(request.merchantName === undefined ? {} : { name: request.merchantName }),
          ...(request.merchantEmail === undefined ? {} : { email: request.merchantEmail }),
          ...(logo === undefined ? {} : { logo }),
          ...(settlementAddresses === undefined ? {} : { settlementAddresses }),
        },
        now: deps.clock.now(),
      })
      if (!record) throw merchantNotFound(input.merchantId)
      return merchantView(record, deps.logoUrl)
    },
  }
}

const merchantNotFound = (id: string) => new ApiError('merchant_not_found', `No merchant ${id} for this API key.`)

export type MerchantService = ReturnType<typeof merchantService>
