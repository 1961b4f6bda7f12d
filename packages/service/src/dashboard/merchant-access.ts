import { ApiError } from '../errors.ts'
import type { MerchantService } from '../merchants/index.ts'
import type { DashboardUser } from './people.ts'

/**
 * The merchant a page names, when the signed-in user may see it: one of their partner's, and theirs when
 * they are limited to one. Anything else is 404, as another partner's merchant is over the API.
 */
export async function visibleMerchant(merchants: MerchantService, user: DashboardUser, merchantId: string): Promise<string> {
  if (user.merchantId !== null && user.merchantId !== merchantId) {
    throw new ApiError('merchant_not_found', `No merchant ${merchantId} for this user.`)
  }
  await merchants.ownedBy(user.partnerId, merchantId)
  return merchantId
}
