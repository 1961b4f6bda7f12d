// Registers both elements: the entry of the prebuilt bundle (dist/pay-elements.js) and of `@till/elements/define`.
export { PayButton } from './pay-button.ts'
export { PayReturn } from './pay-return.ts'
