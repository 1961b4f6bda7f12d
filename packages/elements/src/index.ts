// The element classes and their types, without registering anything (for that: `@till/elements/define`,
// `@till/elements/pay-button/define`, `@till/elements/pay-return/define`).
export { PayButton, type PayButtonState, type PayCreatedEvent, type PayStartDetail, type PayStartEvent } from './pay-button.ts'
export { PayReturn, type PayStatusEvent, type ReturnView } from './pay-return.ts'
export type { PayErrorDetail, PayErrorEvent } from './shared.ts'
export type { CreatePaymentReply, MerchantErrorBody, ReturnStatus, VerifyReply } from './protocol.ts'
