// The dashboard's entry: each element is defined here, apart from its class.
import { TillAccount } from './pages/account.ts'
import { TillApiKeys } from './pages/api-keys.ts'
import { TillAuditLog } from './pages/audit-log.ts'
import { TillInvitation } from './pages/invitation.ts'
import { TillMerchants } from './pages/merchants.ts'
import { TillPayment } from './pages/payment.ts'
import { TillPayments } from './pages/payments.ts'
import { TillSignIn } from './pages/sign-in.ts'
import { TillTeam } from './pages/team.ts'
import { TillUnapplied } from './pages/unapplied.ts'
import { TillWebhooks } from './pages/webhooks.ts'
import { TillDashboard } from './till-dashboard.ts'

const ELEMENTS: [string, CustomElementConstructor][] = [
  ['till-sign-in', TillSignIn],
  ['till-invitation', TillInvitation],
  ['till-payments', TillPayments],
  ['till-payment', TillPayment],
  ['till-audit-log', TillAuditLog],
  ['till-api-keys', TillApiKeys],
  ['till-team', TillTeam],
  ['till-merchants', TillMerchants],
  ['till-unapplied', TillUnapplied],
  ['till-account', TillAccount],
  ['till-webhooks', TillWebhooks],
  ['till-dashboard', TillDashboard],
]
for (const [name, element] of ELEMENTS) if (!customElements.get(name)) customElements.define(name, element)
