// Registers <pay-return>. Importing it twice (two bundles, a hot reload) is harmless.
import { PayReturn } from '../pay-return.ts'

if (!customElements.get('pay-return')) customElements.define('pay-return', PayReturn)

export { PayReturn }
