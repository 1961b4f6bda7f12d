// Registers <pay-button>. Importing it twice (two bundles, a hot reload) is harmless.
import { PayButton } from '../pay-button.ts'

if (!customElements.get('pay-button')) customElements.define('pay-button', PayButton)

export { PayButton }
