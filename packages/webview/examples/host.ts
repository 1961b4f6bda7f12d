import { decideNavigation, embeddedCheckoutUrl, parseBridgeMessage } from '@till/webview'

/** What the checkout screen needs from the app: the OS, your own backend, and a way to tell the buyer. */
export interface Host {
  openInOS(url: string): Promise<unknown> // React Native: Linking.openURL
  verifyPayment(paymentId: string): Promise<{ paid: boolean }> // your backend asks Till (spec 4.4)
  show(text: string): void
}

export function checkoutScreen(host: Host, payment: { paymentId: string; gatewayUrl: string }) {
  const verify = async () => {
    const { paid } = await host.verifyPayment(payment.paymentId)
    host.show(paid ? 'Thank you! Your order is paid.' : 'Waiting for the payment to be confirmed…')
  }
  return {
    // Load this in the WebView, with JavaScript and DOM storage on.
    address: embeddedCheckoutUrl(payment.gatewayUrl, { returnUrl: 'myshop://checkout/done' }),

    // Ask before every navigation and every window.open: true lets the WebView load the URL.
    shouldLoad(url: string): boolean {
      const { action } = decideNavigation(url)
      // A wallet link goes to the OS whole; no wallet installed is not an error.
      if (action === 'open-externally') host.openInOS(url).catch(() => {})
      return action === 'allow'
    },

    // Every string the page posts on window.NativeWebView.
    async onMessage(data: unknown): Promise<void> {
      const signal = parseBridgeMessage(data)
      // A success only says "now verify": the order is paid when your backend says so.
      if (signal.kind === 'success') await verify()
      if (signal.kind === 'failure') host.show(`Payment failed: ${signal.error ?? 'please try again'}`)
    },

    // The buyer closed the checkout with no message: verify all the same.
    onClose: verify,
  }
}
