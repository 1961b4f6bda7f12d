// The rails area's door: what the rest of the service may use of it. Everything else in rails/ is its own
// (src/areas.test.ts checks it); its builder, area.ts, is for the composition root, app.ts, alone.
export { networkName } from './networks.ts'
export { partnerModes } from './partner-modes.ts'
export type { PaymentRail, PaymentRails } from './rail.ts'
export { optionView, paymentRequestUri, transferDetails } from './shared-details.ts'
