// The refund pages' script (issue 24): on the buyer's claim page, "Connect a browser wallet" fills in the
// connected account; on the merchant's pay page, each browser wallet found can send the refund's transfer,
// whose hash the page posts and whose status it then follows. Both pages work as plain forms without it
// (the claim page) or say that a browser wallet needs it (the pay page). Served as its own small asset.
import { discoverWallets, type AnnouncedWallet } from './wallets/discovery.ts'
import { requestAccount, sendTransaction, switchChain, walletFailure } from './wallets/eip1193.ts'
import { type Address, isAddress, transferCall } from './wallets/transfer-call.ts'

const root = document.querySelector<HTMLElement>('[data-refund]')
const text = (selector: string, value: string) => {
  const element = root?.querySelector<HTMLElement>(selector)
  if (element) element.textContent = value
}

const FAILURES: Record<ReturnType<typeof walletFailure>, string> = {
  declined: 'The wallet declined. Nothing was sent.',
  unknownChain: 'The wallet does not have this network. Add it to the wallet, then try again.',
  busy: 'The wallet is busy with another request. Finish it in the wallet, then try again.',
  failed: 'The wallet could not do it. Try again, or use another wallet.',
}

/** Buttons for each wallet found in the browser, in `list`; `onPick` runs for the one clicked. */
function walletButtons(list: HTMLElement, label: (wallet: AnnouncedWallet) => string, onPick: (wallet: AnnouncedWallet) => void) {
  discoverWallets(window, 'Browser wallet', (wallets) => {
    list.replaceChildren(
      ...wallets.map((wallet) => {
        const button = document.createElement('button')
        button.type = 'button'
        button.textContent = label(wallet)
        button.addEventListener('click', () => onPick(wallet))
        return button
      }),
    )
    text('[data-no-wallet]', wallets.length === 0 ? 'No browser wallet found in this browser.' : '')
  })
}

function claimPage(page: HTMLElement): void {
  const network = page.dataset.network ?? ''
  const input = page.querySelector<HTMLInputElement>('input[name=destination]')
  const connected = page.querySelector<HTMLInputElement>('input[name=connected]')
  const list = page.querySelector<HTMLElement>('[data-wallets]')
  if (!input || !connected || !list) return
  walletButtons(
    list,
    (wallet) => `Use my ${wallet.name} account`,
    async (wallet) => {
      try {
        const account = await requestAccount(wallet.provider)
        input.value = `${network}:${account}`
        connected.value = '1'
        input.focus()
        text('[data-wallet-status]', `Filled in the account ${wallet.name} connected.`)
      } catch (error) {
        text('[data-wallet-status]', FAILURES[walletFailure(error)])
      }
    },
  )
  // A typed address is checked for its checksum by the server; only the wallet's own answer skips that.
  input.addEventListener('input', () => {
    connected.value = ''
  })
}

async function follow(page: HTMLElement): Promise<void> {
  const url = page.dataset.statusUrl
  if (!url) return
  for (;;) {
    const response = await fetch(url, { headers: { accept: 'application/json' } })
    const body = (await response.json().catch(() => ({}))) as { status?: string; words?: string }
    if (body.words) text('[data-refund-status]', body.words)
    if (body.status === 'succeeded' || body.status === 'failed' || body.status === 'cancelled') return
    await new Promise((resolve) => setTimeout(resolve, 2_000))
  }
}

/**
 * Posts the hash of the transfer the wallet sent, until Till knows it: a node may not have seen a transaction
 * sent a moment ago (409 transaction_not_found). Answers Till's refusal, if it refused it.
 */
async function postHash(url: string, hash: string): Promise<string | undefined> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ transactionHash: hash }),
    }).catch(() => undefined)
    const body = (await response?.json().catch(() => ({}))) as { message?: string; code?: string } | undefined
    if (response?.ok) return undefined
    const later = response === undefined || body?.code === 'transaction_not_found'
    if (!later || attempt >= 30) return body?.message ?? 'Till could not check the transfer.'
    await new Promise((resolve) => setTimeout(resolve, 2_000))
  }
}

function payPage(page: HTMLElement): void {
  const { chainId, token, destination, amount, reference, submitUrl } = page.dataset
  const list = page.querySelector<HTMLElement>('[data-wallets]')
  if (!list || !chainId || !isAddress(token) || !isAddress(destination) || !amount || !reference || !submitUrl) return
  const data = `${transferCall(destination as Address, BigInt(amount))}${reference.slice(2)}` as `0x${string}`
  walletButtons(
    list,
    (wallet) => `Send with ${wallet.name}`,
    async (wallet) => {
      let hash: `0x${string}`
      try {
        text('[data-wallet-status]', `Confirm the transfer in ${wallet.name}.`)
        const from = await requestAccount(wallet.provider)
        await switchChain(wallet.provider, Number(chainId))
        hash = await sendTransaction(wallet.provider, { chainId: Number(chainId), from, to: token as Address, data })
      } catch (error) {
        text('[data-wallet-status]', FAILURES[walletFailure(error)])
        return
      }
      // Sent: no second transfer may start from this page, whatever Till answers.
      list.remove()
      text('[data-no-wallet]', '')
      text('[data-wallet-status]', `Sent (${hash}). Till is checking the transfer on the network…`)
      const refused = await postHash(submitUrl, hash)
      text('[data-wallet-status]', refused ? `${refused} The transfer ${hash} was sent; do not send it again.` : '')
      await follow(page)
    },
  )
}

if (root?.dataset.refund === 'claim') claimPage(root)
if (root?.dataset.refund === 'pay') {
  payPage(root)
  if (root.dataset.following === 'true') void follow(root)
}
