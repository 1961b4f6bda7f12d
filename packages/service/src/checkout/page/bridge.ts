/**
 * Spec 4.8 and 6: inside a native WebView the page tells the app how the payment ended through
 * `window.NativeWebView.postMessage(<json string>)`. The app treats it as a prompt to check the status
 * server-side, never as proof. Outside a WebView there is no such object and nothing is sent.
 */
type NativeWebView = { postMessage(message: string): void }

declare global {
  interface Window {
    NativeWebView?: NativeWebView
    webkit?: { messageHandlers?: { NativeWebView?: NativeWebView } }
  }
}

export function postBridgeMessage(success: boolean, text: string): void {
  // WKWebView never defines window.NativeWebView; its script message handler of that name is reached through
  // webkit.messageHandlers, so an iOS host needs no injected shim (a shim, when there is one, comes first).
  const bridge = window.NativeWebView ?? window.webkit?.messageHandlers?.NativeWebView
  if (!bridge || typeof bridge.postMessage !== 'function') return
  const message = success ? { type: 'PAY_SUCCESS', success: true, message: text } : { type: 'PAY_FAILURE', success: false, error: text }
  try {
    bridge.postMessage(JSON.stringify(message))
  } catch {
    // A broken host bridge must not break the page: the buyer still sees the outcome.
  }
}
