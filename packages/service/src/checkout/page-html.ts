import type { CheckoutSession } from '@till/contract'
import { pageSession } from './page/bootstrap.ts'
import { formatFiat } from './page/format.ts'
import { amountLabelsFor } from './page/amount-labels.ts'
import { serverPages, type Strings } from './page/strings.ts'
import type { CheckoutAssets } from './page-assets.ts'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char)

/** JSON inside a non-executed <script> element: nothing in it may close the element or start a comment. */
const embedJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')

function shell(input: { t: Strings; title: string; assets: CheckoutAssets; body: string; script: boolean; reloadAfterSeconds?: number }) {
  const { t, assets } = input
  // Asset and API URLs are relative to the page, so the page works under any prefix a proxy gives it.
  return `<!doctype html>
<html lang="${t.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${input.reloadAfterSeconds ? `<meta http-equiv="refresh" content="${input.reloadAfterSeconds}">\n` : ''}<title>${escapeHtml(input.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="./assets/${assets.style.fileName}">
${input.script ? `<script type="module" src="./assets/${assets.script.fileName}"></script>\n` : ''}</head>
<body>
${input.body}
</body>
</html>
`
}

/**
 * The page's first paint comes from the server: who is paid, how much, and a live region. The script
 * then renders the wallet steps and the payment's state into #checkout-app.
 */
export function checkoutPageHtml(input: { session: CheckoutSession; token: string; assets: CheckoutAssets; t: Strings }): string {
  const { session, t } = input
  const amount = formatFiat(session.amount, t.locale)
  const name = escapeHtml(session.merchant.name)
  const logo = session.merchant.iconUrl
    ? `<img src="${escapeHtml(session.merchant.iconUrl)}" alt="" width="48" height="48" referrerpolicy="no-referrer">`
    : `<span class="monogram" aria-hidden="true">${escapeHtml(Array.from(session.merchant.name.trim())[0]?.toUpperCase() ?? '?')}</span>`
  const amountLabel = amountLabelsFor(t.locale)[session.state.status]
  const badge = session.localChain ? serverPages.localChainBadge : session.sandbox ? serverPages.sandboxBadge : null
  const body = `<main aria-labelledby="checkout-amount">
<header class="merchant">
${logo}
<div><p class="pay-to">${escapeHtml(serverPages.payTo)}</p><p class="merchant-name">${name}</p></div>
${badge ? `<span class="badge">${escapeHtml(badge)}</span>` : ''}
</header>
<p class="amount-label" id="checkout-amount-label">${escapeHtml(amountLabel)}</p>
<h1 class="amount" id="checkout-amount" aria-describedby="checkout-amount-label">${escapeHtml(amount)}</h1>
<div class="app" id="checkout-app"><noscript><p>${escapeHtml(serverPages.noScript)}</p></noscript></div>
<p class="visually-hidden" id="checkout-live" role="status" aria-live="polite"></p>
</main>
<script type="application/json" id="checkout-data">${embedJson({ token: input.token, session: pageSession(session) })}</script>`
  return shell({ t, title: serverPages.title(session.merchant.name, amount), assets: input.assets, body, script: true })
}

export function notFoundPageHtml(input: { assets: CheckoutAssets; t: Strings }): string {
  const { t } = input
  return shell({
    t,
    title: serverPages.notFoundTitle,
    assets: input.assets,
    script: false,
    body: `<main aria-labelledby="not-found"><h1 class="heading" id="not-found">${escapeHtml(serverPages.notFoundTitle)}</h1><p>${escapeHtml(serverPages.notFoundBody)}</p></main>`,
  })
}

/** The page while the service cannot read the payment (its database is restarting): it reloads itself. */
export function unavailablePageHtml(input: { assets: CheckoutAssets; t: Strings; reloadAfterSeconds: number }): string {
  const { t } = input
  return shell({
    t,
    title: serverPages.unavailableTitle,
    assets: input.assets,
    script: false,
    reloadAfterSeconds: input.reloadAfterSeconds,
    body: `<main aria-labelledby="unavailable"><h1 class="heading" id="unavailable">${escapeHtml(serverPages.unavailableTitle)}</h1><p>${escapeHtml(serverPages.unavailableBody)}</p></main>`,
  })
}

/** A page embedded with wrong parameters (spec 4.8): what the app's developer must fix, field by field. */
export function integrationErrorPageHtml(input: {
  assets: CheckoutAssets
  t: Strings
  problems: { field: string; message: string }[]
}): string {
  const { t } = input
  const items = input.problems.map((p) => `<li><code>${escapeHtml(p.field)}</code> ${escapeHtml(p.message)}</li>`).join('')
  return shell({
    t,
    title: serverPages.integrationErrorTitle,
    assets: input.assets,
    script: false,
    body: `<main aria-labelledby="integration-error"><h1 class="heading" id="integration-error">${escapeHtml(serverPages.integrationErrorTitle)}</h1><p>${escapeHtml(serverPages.integrationErrorBody)}</p><ul>${items}</ul></main>`,
  })
}

/**
 * A wallet link opened in an ordinary browser, where no app hands it to a wallet (spec 4.8). The sandbox's
 * mobile wallet opens one on a desktop in place of the checkout: `back` then leads to the payment's page.
 */
export function walletLinkPageHtml(input: { assets: CheckoutAssets; t: Strings; uri: string | null; back?: string | null }): string {
  const { t } = input
  const back = input.back
    ? `<p><a class="return-link" href="${escapeHtml(input.back)}">${escapeHtml(serverPages.walletLinkBack)}</a></p>`
    : ''
  const body = input.uri
    ? `<p>${escapeHtml(serverPages.walletLinkBody)}</p><p><code class="wallet-uri">${escapeHtml(input.uri)}</code></p>${back}`
    : `<p>${escapeHtml(serverPages.walletLinkMissing)}</p>`
  return shell({
    t,
    title: serverPages.walletLinkTitle,
    assets: input.assets,
    script: false,
    body: `<main aria-labelledby="wallet-link"><h1 class="heading" id="wallet-link">${escapeHtml(serverPages.walletLinkTitle)}</h1>${body}</main>`,
  })
}
