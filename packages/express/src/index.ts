// Public surface of @till/express.
export { MerchantError, type MerchantErrorCode } from './errors.ts'
export type { CheckoutUrls, PayRouterOptions } from './options.ts'
export { memoryOrderStore, type OrderStore, type PayableOrder } from './orders.ts'
export { payRouter } from './router.ts'
