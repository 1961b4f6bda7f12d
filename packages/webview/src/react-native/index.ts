// `@till/webview/react-native`: Till's embedded checkout in a react-native-webview (spec 4.8).
import { createElement, type ReactElement } from 'react'
import { Linking } from 'react-native'
import { WebView, type WebViewProps } from 'react-native-webview'
import { embeddedCheckoutUrl } from '../embedded-url.ts'
import { isLoopbackHttp } from '../url.ts'
import { type CheckoutWebViewError, type CheckoutWebViewHandlerOptions, checkoutWebViewHandlers, NATIVE_WEBVIEW_SHIM } from './handlers.ts'

export {
  type CheckoutWebViewError,
  type CheckoutWebViewHandlerOptions,
  type CheckoutWebViewHandlers,
  checkoutWebViewHandlers,
  NATIVE_WEBVIEW_SHIM,
} from './handlers.ts'

export interface PayCheckoutWebViewProps {
  /** The `gatewayUrl` of the payment, as Till returned it to your backend. */
  gatewayUrl: string
  /** Your app's own deep link (or https universal link), where wallets send the buyer back after signing. */
  returnUrl: string
  /**
   * A success or a failure posted by the page. A success only ever says "now verify server-side": ask your
   * backend to check the payment's status with Till (spec 4.4) before marking the order paid. No call at all
   * (the buyer closed the sheet) means: verify server-side anyway.
   */
  onResult: CheckoutWebViewHandlerOptions['onResult']
  /** The checkout could not be shown: a failed page load, or a dead web content process. */
  onError?: (error: CheckoutWebViewError) => void
  style?: WebViewProps['style']
}

/**
 * Till's checkout in a react-native-webview: loads `embeddedCheckoutUrl(gatewayUrl, { returnUrl })`, sends
 * every navigation and `window.open` through the decision table (wallet links to the OS, https and about in
 * the WebView, everything else blocked), and reads the bridge messages. JavaScript and DOM storage on, file
 * access off.
 *
 * @throws TypeError (from embeddedCheckoutUrl) when `gatewayUrl` or `returnUrl` is not acceptable.
 */
export function PayCheckoutWebView(props: PayCheckoutWebViewProps): ReactElement {
  const uri = embeddedCheckoutUrl(props.gatewayUrl, { returnUrl: props.returnUrl })
  const handlers = checkoutWebViewHandlers({
    onResult: props.onResult,
    ...(props.onError === undefined ? {} : { onError: props.onError }),
    openURL: (url) => Linking.openURL(url),
    allowLoopbackHttp: isLoopbackHttp(props.gatewayUrl),
  })
  const webViewProps: WebViewProps = {
    source: { uri },
    // The default list hands every non-http(s) URL to the OS before onShouldStartLoadWithRequest is asked:
    // tel:, sms:, intent: and custom schemes would open. With '*' every navigation meets the decision table.
    originWhitelist: ['*'],
    ...handlers,
    // window.open reaches onOpenWindow (Android needs multiple windows on, iOS needs script-opened windows).
    setSupportMultipleWindows: true,
    javaScriptCanOpenWindowsAutomatically: true,
    javaScriptEnabled: true,
    domStorageEnabled: true,
    allowFileAccess: false,
    allowFileAccessFromFileURLs: false,
    allowUniversalAccessFromFileURLs: false,
    allowsLinkPreview: false,
    injectedJavaScriptBeforeContentLoaded: NATIVE_WEBVIEW_SHIM,
    injectedJavaScriptBeforeContentLoadedForMainFrameOnly: true,
    ...(props.style === undefined ? {} : { style: props.style }),
  }
  return createElement(WebView, webViewProps)
}
