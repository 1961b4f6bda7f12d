// The small HTTP protocol between the elements and the merchant's own backend (`@till/express` serves it),
// declared once in `@till/contract`, which both packages depend on. The elements never talk to Till itself:
// the API key stays on the merchant's server, and the only proof of payment is the status that server reads
// from Till.
export type { CreatePaymentReply, MerchantErrorBody, ReturnStatus, VerifyReply } from '@till/contract'
