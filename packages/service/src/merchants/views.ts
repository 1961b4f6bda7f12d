import type { Merchant } from '@till/contract'
import type { LogoUrl } from '../logos/index.ts'
import type { MerchantRecord } from '../accounts/index.ts'

/** A merchant as the API shows it (spec 2.4), with iconUrl at Till's copy of the logo. */
export function merchantView(merchant: MerchantRecord, logoUrl: LogoUrl): Merchant {
  return {
    id: merchant.id,
    name: merchant.name,
    email: merchant.email,
    status: merchant.status,
    createdAt: merchant.createdAt.toISOString(),
    iconUrl: logoUrl(merchant.logo),
    settlementAddresses: merchant.settlementAddresses,
  }
}
