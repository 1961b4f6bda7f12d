// Playwright plays the native app that embeds the checkout (spec 4.8), with @till/webview as its kit: the
// bridge object a WebView provides, the app's navigation policy, and the OS that wallet links go to.
import type { Page } from '@playwright/test'
import { type BridgeResult, decideNavigation, embeddedCheckoutUrl, parseBridgeMessage } from '@till/webview'

/** Where the page finds the bridge: the spec's `window.NativeWebView`, or only WKWebView's message handlers. */
export type BridgeKind = 'NativeWebView' | 'webkit'

export interface NativeHost {
  /** Every bridge message, as @till/webview read it. */
  messages: BridgeResult[]
  /** Links the app handed to the OS (a wallet app), never loaded in the WebView. */
  openedExternally: string[]
  /** Navigations the app refused. */
  blocked: string[]
}

export async function openInNativeHost(
  page: Page,
  input: { gatewayUrl: string; returnUrl: string; bridge: BridgeKind },
): Promise<NativeHost> {
  const host: NativeHost = { messages: [], openedExternally: [], blocked: [] }
  await page.exposeFunction('__tillHostReceive', (data: unknown) => {
    host.messages.push(parseBridgeMessage(data))
  })
  await page.addInitScript((kind: BridgeKind) => {
    const receive = (window as unknown as { __tillHostReceive: (data: unknown) => void }).__tillHostReceive
    const handler = { postMessage: (data: unknown) => receive(data) }
    if (kind === 'NativeWebView') Object.assign(window, { NativeWebView: handler })
    else Object.assign(window, { webkit: { messageHandlers: { NativeWebView: handler } } })
  }, input.bridge)

  // The app's shouldStartLoad: every navigation of the WebView goes through decideNavigation. A refused
  // or handed-off navigation is answered 204, which leaves the page where it is, as a cancelled one does.
  await page.route('**/*', async (route) => {
    const request = route.request()
    if (!request.isNavigationRequest()) return route.continue()
    const decision = decideNavigation(request.url())
    if (decision.action === 'allow') return route.continue()
    ;(decision.action === 'open-externally' ? host.openedExternally : host.blocked).push(request.url())
    return route.fulfill({ status: 204 })
  })
  await page.goto(embeddedCheckoutUrl(input.gatewayUrl, { returnUrl: input.returnUrl }))
  return host
}
