// <PayCheckoutWebView> renders react-native-webview's WebView with the spec's settings. React Native itself
// does not run on Node: its Linking and the WebView are stand-ins here, and the element's props are read.
import { isValidElement } from 'react'
import type { WebViewProps } from 'react-native-webview'
import { beforeEach, describe, expect, it, vi } from 'vitest'

const openURL = vi.fn((_url: string) => Promise.resolve(true))
vi.mock('react-native', () => ({ Linking: { openURL: (url: string) => openURL(url) } }))
vi.mock('react-native-webview', () => ({ WebView: function WebView() {} }))

const { PayCheckoutWebView, NATIVE_WEBVIEW_SHIM } = await import('./index.ts')
const { WebView } = await import('react-native-webview')

/** A handler as the test calls it: with only the event fields the component reads. */
type Handler = (event: object) => unknown
/** The WebView's props as rendered; its handlers are called with stand-in events. */
type Rendered = Omit<WebViewProps, 'onShouldStartLoadWithRequest' | 'onOpenWindow' | 'onMessage' | 'onError'> &
  Record<'onShouldStartLoadWithRequest' | 'onOpenWindow' | 'onMessage' | 'onError', Handler>

function render(props: Parameters<typeof PayCheckoutWebView>[0]): Rendered {
  const element = PayCheckoutWebView(props)
  expect(isValidElement(element)).toBe(true)
  expect(element.type).toBe(WebView)
  return element.props as Rendered
}

const gatewayUrl = 'https://pay.example/checkout/pay_1?lang=en'
const returnUrl = 'myshop://checkout/done'
const synthetic = <T>(nativeEvent: T) => ({ nativeEvent })

describe('PayCheckoutWebView', () => {
  beforeEach(() => openURL.mockClear())

  it('loads the embedded checkout URL', () => {
    const props = render({ gatewayUrl, returnUrl, onResult: () => {} })
    expect(props.source).toEqual({
      uri: 'https://pay.example/checkout/pay_1?lang=en&returnUrl=myshop%3A%2F%2Fcheckout%2Fdone&preferUniversalLinks=1',
    })
  })

  it('turns on JavaScript, DOM storage and script-opened windows, turns file access off, and lets every URL reach the decision table', () => {
    const props = render({ gatewayUrl, returnUrl, onResult: () => {} })
    expect(props).toMatchObject({
      javaScriptEnabled: true,
      domStorageEnabled: true,
      setSupportMultipleWindows: true,
      javaScriptCanOpenWindowsAutomatically: true,
      allowFileAccess: false,
      allowFileAccessFromFileURLs: false,
      allowUniversalAccessFromFileURLs: false,
      originWhitelist: ['*'],
      injectedJavaScriptBeforeContentLoaded: NATIVE_WEBVIEW_SHIM,
      injectedJavaScriptBeforeContentLoadedForMainFrameOnly: true,
    })
  })

  it('hands wallet links to Linking.openURL, from a navigation or from window.open', () => {
    const props = render({ gatewayUrl, returnUrl, onResult: () => {} })
    const link = 'https://metamask.app.link/wc?uri=wc:abc@2'
    expect(props.onShouldStartLoadWithRequest({ url: link })).toBe(false)
    props.onOpenWindow(synthetic({ targetUrl: link }))
    expect(openURL.mock.calls).toEqual([[link], [link]])
    expect(props.onShouldStartLoadWithRequest({ url: 'tel:+1555' })).toBe(false)
    expect(props.onShouldStartLoadWithRequest({ url: 'https://pay.example/checkout/pay_1' })).toBe(true)
    expect(openURL).toHaveBeenCalledTimes(2)
  })

  it('calls onResult for a success or a failure, never for anything else', () => {
    const onResult = vi.fn()
    const props = render({ gatewayUrl, returnUrl, onResult })
    props.onMessage(synthetic({ data: '{"type":"PAY_SUCCESS","success":true}' }))
    props.onMessage(synthetic({ data: 'hello' }))
    props.onMessage(synthetic({ data: '{"type":"PAY_FAILURE","error":"Declined"}' }))
    expect(onResult.mock.calls).toEqual([[{ kind: 'success' }], [{ kind: 'failure', error: 'Declined' }]])
  })

  it('passes load errors to onError', () => {
    const onError = vi.fn()
    const props = render({ gatewayUrl, returnUrl, onResult: () => {}, onError })
    props.onError(synthetic({ url: gatewayUrl, code: -6, description: 'net::ERR_CONNECTION_REFUSED' }))
    expect(onError).toHaveBeenCalledExactlyOnceWith({
      kind: 'load-failed',
      url: gatewayUrl,
      code: -6,
      description: 'net::ERR_CONNECTION_REFUSED',
    })
  })

  it('loads http only for a Till on a loopback host', () => {
    const local = render({ gatewayUrl: 'http://127.0.0.1:4000/checkout/pay_1', returnUrl, onResult: () => {} })
    expect(local.onShouldStartLoadWithRequest({ url: 'http://127.0.0.1:4000/checkout/pay_1?x=1' })).toBe(true)
    const remote = render({ gatewayUrl, returnUrl, onResult: () => {} })
    expect(remote.onShouldStartLoadWithRequest({ url: 'http://127.0.0.1:4000/checkout/pay_1?x=1' })).toBe(false)
  })

  it('throws the TypeError of embeddedCheckoutUrl for a bad gatewayUrl or returnUrl', () => {
    expect(() => PayCheckoutWebView({ gatewayUrl: 'http://pay.example/c', returnUrl, onResult: () => {} })).toThrow(TypeError)
    expect(() => PayCheckoutWebView({ gatewayUrl, returnUrl: 'javascript:alert(1)', onResult: () => {} })).toThrow(/returnUrl/)
  })
})
