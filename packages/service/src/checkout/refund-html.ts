// The refund pages (issue 24), painted by the server: the buyer's claim page, where they say where the
// refund goes, and the merchant's pay page, where their wallet sends it. The claim page is a plain form that
// works without script; the script (page/refund-page.ts) adds "Use my wallet's account" and, on the pay page,
// the browser wallets that can send the transfer.
import type { Refund } from '@till/contract'
import { formatFiat, formatToken } from './page/format.ts'
import { escapeHtml } from './page-html.ts'
import type { CheckoutAssets } from './page-assets.ts'
import { refundPageScript } from './page-assets.ts'

/** What both pages show of a refund, and who it is from. */
export type RefundPageData = {
  refund: Refund
  merchant: { name: string; iconUrl: string | null }
  networkName: string
}

const money = (refund: Refund) => {
  const tokens = formatToken(refund.tokenAmount, 'en')
  return refund.amount ? `${tokens} (${formatFiat(refund.amount, 'en')})` : tokens
}

function shell(input: { title: string; assets: CheckoutAssets; body: string; script: boolean }) {
  // The pages live at <checkout>/refunds/<id>/<page>: the assets are two levels up, under any proxy prefix.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="../../assets/${input.assets.style.fileName}">
${input.script ? `<script type="module" src="../../assets/${refundPageScript(input.assets).fileName}"></script>\n` : ''}</head>
<body>
${input.body}
</body>
</html>
`
}

function header(data: RefundPageData, heading: string) {
  const logo = data.merchant.iconUrl
    ? `<img src="${escapeHtml(data.merchant.iconUrl)}" alt="" width="48" height="48" referrerpolicy="no-referrer">`
    : ''
  return `<header class="merchant">${logo}<div><p class="pay-to">Refund from</p><p class="merchant-name">${escapeHtml(data.merchant.name)}</p></div></header>
<h1 class="heading" id="refund-heading">${escapeHtml(heading)}</h1>
<p class="amount">${escapeHtml(money(data.refund))}</p>
<p>on ${escapeHtml(data.networkName)}</p>
${data.refund.reason ? `<p>Reason: ${escapeHtml(data.refund.reason)}</p>` : ''}`
}

/** A refund page that cannot be used: the link was used, has expired, or is not this refund's. */
export function refundNoticeHtml(input: { assets: CheckoutAssets; title: string; body: string }): string {
  return shell({
    title: input.title,
    assets: input.assets,
    script: false,
    body: `<main aria-labelledby="refund-notice"><h1 class="heading" id="refund-notice">${escapeHtml(input.title)}</h1><p>${escapeHtml(input.body)}</p></main>`,
  })
}

/** The buyer's claim page: where should the refund go? */
export function claimPageHtml(input: {
  assets: CheckoutAssets
  data: RefundPageData
  token: string
  /** The account that paid: suggested, since it is where the money came from. */
  paidFrom: string | null
  /** What the buyer typed, and why it was refused, when the form comes back. */
  entered?: { destination: string; problem: string }
}): string {
  const { data, entered } = input
  const network = data.refund.tokenAmount.unit.replace(/^caip19\//, '').split('/')[0] ?? ''
  const value = entered?.destination ?? ''
  const suggestion = input.paidFrom
    ? `<p>It was paid from <code>${escapeHtml(input.paidFrom)}</code>.</p>
<button type="submit" name="destination" value="${escapeHtml(input.paidFrom)}" formnovalidate>Send it back to the account that paid</button>`
    : ''
  const problem = entered ? `<p class="notice" role="alert" id="destination-problem">${escapeHtml(entered.problem)}</p>` : ''
  const body = `<main aria-labelledby="refund-heading" data-refund="claim" data-network="${escapeHtml(network)}">
${header(data, 'Where should your refund go?')}
<form method="post" action="./claim">
<input type="hidden" name="token" value="${escapeHtml(input.token)}">
<input type="hidden" name="connected" value="">
${suggestion}
<p><label for="destination">Or another account on ${escapeHtml(data.networkName)} (${escapeHtml(network)}:0x…)</label></p>
<p><input id="destination" name="destination" value="${escapeHtml(value)}" autocomplete="off" spellcheck="false" size="60"${entered ? ' aria-invalid="true" aria-describedby="destination-problem"' : ''}></p>
${problem}
<div data-wallets></div>
<p data-no-wallet></p>
<p data-wallet-status role="status"></p>
<p class="notice"><strong>Use an account you control.</strong> An exchange's deposit address may not credit a refund sent from another account, and the money could be lost. The refund is sent once and cannot be undone.</p>
<p><label><input type="checkbox" name="confirm" value="1" required> I control this account, and it can receive ${escapeHtml(data.refund.tokenAmount.display?.assetSymbol ?? 'this token')} on ${escapeHtml(data.networkName)}</label></p>
<p><button type="submit">Send my refund here</button></p>
</form>
</main>`
  return shell({ title: `Your refund from ${data.merchant.name}`, assets: input.assets, script: true, body })
}

/** After the claim: where the refund will go. */
export function claimedPageHtml(input: { assets: CheckoutAssets; data: RefundPageData }): string {
  const { data } = input
  const body = `<main aria-labelledby="refund-heading">
${header(data, 'Thank you')}
<p>Your refund will be sent to <code>${escapeHtml(data.refund.destination ?? '')}</code>. ${escapeHtml(data.merchant.name)} sends it from their wallet; this link is used up.</p>
</main>`
  return shell({ title: `Your refund from ${data.merchant.name}`, assets: input.assets, script: false, body })
}

/** What the pay page says of the refund, by its status. */
export function refundStatusWords(refund: Pick<Refund, 'status' | 'destination'>): string {
  switch (refund.status) {
    case 'awaiting_destination':
      return 'Waiting for the buyer to say where the refund goes (their claim link). Come back once they have.'
    case 'ready':
      return `Ready to send to ${refund.destination ?? ''}.`
    case 'submitted':
      return 'Sent. Waiting for the network to confirm the transfer…'
    case 'succeeded':
      return 'Refund confirmed on the network.'
    case 'failed':
      return 'The transfer failed on the network. Nothing was refunded; create a new refund to try again.'
    case 'cancelled':
      return 'This refund was cancelled.'
  }
}

/** The merchant's pay page: send the refund from the wallet that holds the funds. */
export function payPageHtml(input: {
  assets: CheckoutAssets
  data: RefundPageData
  token: string
  testWallets: readonly { id: string; name: string }[]
}): string {
  const { data } = input
  const { refund } = data
  const unit = refund.tokenAmount.unit.replace(/^caip19\//, '')
  const [network = '', asset = ''] = unit.split('/')
  const chainId = network.split(':')[1] ?? ''
  const tokenAddress = asset.replace(/^erc20:/, '')
  const destination = refund.destination?.slice(refund.destination.lastIndexOf(':') + 1) ?? ''
  const payable = refund.status === 'ready'
  const following = refund.status === 'submitted'
  const statusUrl = `./status?token=${encodeURIComponent(input.token)}`
  const wallets =
    payable && input.testWallets.length > 0
      ? `<form method="post" action="./pay"><input type="hidden" name="token" value="${escapeHtml(input.token)}">
${input.testWallets.map((wallet) => `<button type="submit" name="walletId" value="${escapeHtml(wallet.id)}">${escapeHtml(wallet.name)}</button>`).join('\n')}
</form>`
      : payable
        ? `<div data-wallets></div><p data-no-wallet></p><noscript><p>Sending from a browser wallet needs JavaScript.</p></noscript>`
        : ''
  const body = `<main aria-labelledby="refund-heading" data-refund="pay" data-chain-id="${escapeHtml(chainId)}" data-token="${escapeHtml(tokenAddress)}" data-destination="${escapeHtml(destination)}" data-amount="${escapeHtml(refund.tokenAmount.value)}" data-reference="${escapeHtml(refund.reference)}" data-submit-url="./transaction?token=${escapeHtml(encodeURIComponent(input.token))}" data-status-url="${escapeHtml(statusUrl)}" data-following="${following}">
${header(data, 'Send this refund')}
${refund.destination ? `<p>To <code>${escapeHtml(refund.destination)}</code></p>` : ''}
<p data-refund-status role="status">${escapeHtml(refundStatusWords(refund))}</p>
${payable ? '<p>Connect the wallet that holds the funds. It is asked to send exactly this amount to this account, with the refund’s reference, which is how Till recognises the transfer.</p>' : ''}
${wallets}
<p data-wallet-status role="status"></p>
</main>`
  return shell({ title: `Refund ${refund.id}`, assets: input.assets, script: payable || following, body })
}
