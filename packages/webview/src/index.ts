// @till/webview: the host side of Till's embedded checkout (spec 4.8), for apps that load the checkout page in
// a WebView. The React Native component is at `@till/webview/react-native`; docs/embedded-checkout.md has the
// iOS, Android and Flutter equivalents.
export {
  type BridgeFailureReport,
  type BridgeIgnored,
  type BridgeOutcomeResult,
  type BridgeResult,
  type BridgeSuccessClaim,
  parseBridgeMessage,
} from './bridge.ts'
export { type EmbeddedCheckoutOptions, embeddedCheckoutUrl } from './embedded-url.ts'
export { type DecideNavigationOptions, decideNavigation, type NavigationAction, type NavigationDecision } from './navigation.ts'
