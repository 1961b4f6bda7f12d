// The event handlers of <PayCheckoutWebView>, apart from the component so that they run (and are tested)
// without React Native. Only react-native-webview's types are imported here.
import type { WebViewProps } from 'react-native-webview'
import { type BridgeOutcomeResult, parseBridgeMessage } from '../bridge.ts'
import { decideNavigation } from '../navigation.ts'

type Handler<K extends keyof WebViewProps> = NonNullable<WebViewProps[K]>
type EventOf<K extends keyof WebViewProps> = Handler<K> extends (event: infer E) => unknown ? E : never

/** The checkout could not be shown: its page failed to load, or the WebView's web content process died. */
export type CheckoutWebViewError =
  | { kind: 'load-failed'; url: string; code: number; description: string; domain?: string }
  | { kind: 'process-gone'; didCrash?: boolean }

export interface CheckoutWebViewHandlerOptions {
  /**
   * A success or a failure posted by the page. A success only ever says "now verify server-side": ask your
   * backend to check the payment with Till (spec 4.4) before marking the order paid.
   */
  onResult: (result: BridgeOutcomeResult) => void
  /** The checkout could not be shown (not called for the cancelled navigations of wallet links). */
  onError?: (error: CheckoutWebViewError) => void
  /** Hands a URL to the operating system: React Native's `Linking.openURL`. A rejection is ignored. */
  openURL: (url: string) => Promise<unknown>
  /** Let plain http to a loopback host load (a Till on the developer's machine); see decideNavigation. */
  allowLoopbackHttp?: boolean
}

export interface CheckoutWebViewHandlers {
  onShouldStartLoadWithRequest: Handler<'onShouldStartLoadWithRequest'>
  onOpenWindow: Handler<'onOpenWindow'>
  onMessage: Handler<'onMessage'>
  onError: Handler<'onError'>
  onRenderProcessGone: Handler<'onRenderProcessGone'>
  onContentProcessDidTerminate: Handler<'onContentProcessDidTerminate'>
}

/** NSURLErrorCancelled, or WebKit's "frame load interrupted": what cancelling a wallet link's navigation raises on iOS. */
const isCancelledNavigation = (code: number, domain: string | undefined): boolean =>
  code === -999 || (code === 102 && domain === 'WebKitErrorDomain')

/**
 * Defines `window.NativeWebView.postMessage` (spec 4.8's bridge) on react-native-webview's own
 * `window.ReactNativeWebView`, which is all that the WebView provides. Injected before the page's scripts
 * run, in the main frame only.
 */
export const NATIVE_WEBVIEW_SHIM = `(function () {
  if (window.NativeWebView) return;
  window.NativeWebView = {
    postMessage: function (data) {
      if (window.ReactNativeWebView) window.ReactNativeWebView.postMessage(String(data));
    },
  };
})();
true;`

/**
 * The handlers that make a react-native-webview follow spec 4.8:
 * - `onShouldStartLoadWithRequest` applies `decideNavigation`: a wallet link is handed whole to the OS and
 *   not loaded; https and about load; everything else is blocked.
 * - `onOpenWindow` (`window.open`, which never reaches onShouldStartLoadWithRequest): a wallet link goes to
 *   the OS the same way, an https page to the system browser (the checkout stays where it is), the rest is
 *   dropped.
 * - `onMessage` reads the bridge with `parseBridgeMessage` and calls `onResult` for a success or a failure.
 */
export function checkoutWebViewHandlers(options: CheckoutWebViewHandlerOptions): CheckoutWebViewHandlers {
  const decide = (url: string) => decideNavigation(url, { allowLoopbackHttp: options.allowLoopbackHttp === true })
  const open = (url: string): void => {
    try {
      // No wallet installed: nothing to do, the buyer stays on the checkout and can pick another way to pay.
      options.openURL(url).catch(() => {})
    } catch {}
  }
  return {
    onShouldStartLoadWithRequest: (request) => {
      const { action } = decide(request.url)
      if (action === 'open-externally') open(request.url)
      return action === 'allow'
    },
    onOpenWindow: (event: EventOf<'onOpenWindow'>) => {
      const url = event.nativeEvent.targetUrl
      const { action } = decide(url)
      if (action === 'open-externally' || (action === 'allow' && url.toLowerCase().startsWith('https:'))) open(url)
    },
    onMessage: (event: EventOf<'onMessage'>) => {
      const signal = parseBridgeMessage(event.nativeEvent.data)
      if (signal.kind !== 'ignored') options.onResult(signal)
    },
    onError: (event: EventOf<'onError'>) => {
      const { url, code, description, domain } = event.nativeEvent
      if (isCancelledNavigation(code, domain)) return
      options.onError?.({ kind: 'load-failed', url, code, description, ...(domain === undefined ? {} : { domain }) })
    },
    onRenderProcessGone: (event: EventOf<'onRenderProcessGone'>) => {
      options.onError?.({ kind: 'process-gone', didCrash: event.nativeEvent.didCrash })
    },
    onContentProcessDidTerminate: () => {
      options.onError?.({ kind: 'process-gone' })
    },
  }
}
