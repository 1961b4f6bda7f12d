import { describe, expect, it } from 'vitest'
import { announcedWallet, discoverWallets, type AnnouncedWallet, type Eip1193Provider, type WalletHost } from './discovery.ts'

// Node's own EventTarget and CustomEvent stand in for `window`: discovery only dispatches and listens.

const ICON = 'data:image/svg+xml;base64,PHN2Zy8+'

const provider = (): Eip1193Provider => ({ request: async () => null })

const detail = (name: string, uuid = `uuid-${name}`, patch: Record<string, unknown> = {}) => ({
  info: { uuid, name, icon: ICON, rdns: `io.example.${name.toLowerCase()}` },
  provider: provider(),
  ...patch,
})

/** A wallet extension as EIP-6963 describes it: it announces when asked, and once when it loads. */
function installWallet(host: EventTarget, announcement: unknown) {
  const announce = () => host.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: announcement }))
  host.addEventListener('eip6963:requestProvider', announce)
  return { announce }
}

function watch(host: WalletHost) {
  const reports: AnnouncedWallet[][] = []
  const stop = discoverWallets(host, 'Browser wallet', (wallets) => reports.push(wallets))
  const names = () => reports.at(-1)?.map((wallet) => wallet.name)
  return { reports, stop, names }
}

describe('discoverWallets', () => {
  it('shows every wallet that answers the request, with its announced name and icon', () => {
    const host = new EventTarget()
    installWallet(host, detail('MetaMask'))
    installWallet(host, detail('Rabby'))
    const { reports, names } = watch(host)
    expect(names()).toEqual(['MetaMask', 'Rabby'])
    expect(reports.at(-1)?.[0]).toMatchObject({ uuid: 'uuid-MetaMask', icon: ICON })
  })

  it('adds a wallet that announces after the page asked', () => {
    const host = new EventTarget()
    const { names } = watch(host)
    expect(names()).toEqual([])
    installWallet(host, detail('Late Wallet')).announce()
    expect(names()).toEqual(['Late Wallet'])
  })

  it('keeps one button per wallet when it announces again', () => {
    const host = new EventTarget()
    const wallet = installWallet(host, detail('MetaMask'))
    const { names } = watch(host)
    wallet.announce()
    wallet.announce()
    expect(names()).toEqual(['MetaMask'])
  })

  it('falls back to window.ethereum, under the name it was given, only when no wallet announces', () => {
    const legacy = provider()
    const host = Object.assign(new EventTarget(), { ethereum: legacy })
    const { reports, names } = watch(host)
    expect(reports.at(-1)).toEqual([{ uuid: 'window.ethereum', name: 'Browser wallet', icon: null, provider: legacy }])
    installWallet(host, detail('MetaMask')).announce()
    expect(names()).toEqual(['MetaMask'])
  })

  it('finds nothing when there is no wallet at all, or window.ethereum is not a provider', () => {
    expect(watch(new EventTarget()).names()).toEqual([])
    expect(watch(Object.assign(new EventTarget(), { ethereum: { isMetaMask: true } })).names()).toEqual([])
  })

  it('stops listening when told to', () => {
    const host = new EventTarget()
    const { stop, names } = watch(host)
    stop()
    installWallet(host, detail('MetaMask')).announce()
    expect(names()).toEqual([])
  })
})

describe('announcedWallet', () => {
  it('ignores announcements without a provider, a uuid or a name', () => {
    expect(announcedWallet(undefined)).toBeNull()
    expect(announcedWallet(detail('MetaMask', 'uuid', { provider: {} }))).toBeNull()
    expect(announcedWallet(detail('MetaMask', ''))).toBeNull()
    expect(announcedWallet(detail('   '))).toBeNull()
    expect(announcedWallet({ provider: provider() })).toBeNull()
  })

  it('shows only data: image icons, never one the page would fetch from elsewhere', () => {
    const remote = detail('MetaMask', 'uuid')
    remote.info.icon = 'https://tracker.example/pixel.png'
    expect(announcedWallet(remote)?.icon).toBeNull()
    const script = detail('MetaMask', 'uuid')
    script.info.icon = 'data:text/html,<script>alert(1)</script>'
    expect(announcedWallet(script)?.icon).toBeNull()
  })

  it('trims the name it shows', () => {
    expect(announcedWallet(detail('  Fox Wallet  '))?.name).toBe('Fox Wallet')
  })
})
