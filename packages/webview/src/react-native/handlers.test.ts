import { runInNewContext } from 'node:vm'
import { describe, expect, it, vi } from 'vitest'
import { type CheckoutWebViewHandlerOptions, checkoutWebViewHandlers, NATIVE_WEBVIEW_SHIM } from './handlers.ts'

// The events as react-native-webview delivers them, with only the fields the handlers read filled in.
const nativeEvent = { loading: false, title: '', canGoBack: false, canGoForward: false, lockIdentifier: 1 }
const request = (url: string) => ({ ...nativeEvent, url, navigationType: 'click' as const, isTopFrame: true })
/** A react-native synthetic event carrying only what the handlers read; they touch nothing else of it. */
const synthetic = <E extends { nativeEvent: object }>(nativeEvent: Partial<E['nativeEvent']>): E => ({ nativeEvent }) as unknown as E

function setup(options: Partial<CheckoutWebViewHandlerOptions> = {}) {
  const onResult = vi.fn()
  const onError = vi.fn()
  const openURL = vi.fn((_url: string) => Promise.resolve(true))
  const handlers = checkoutWebViewHandlers({ onResult, onError, openURL, ...options })
  return { handlers, onResult, onError, openURL }
}

const walletLink = 'https://metamask.app.link/wc?uri=wc:7f6e@2?relay-protocol=irn&symKey=abc'

describe('onShouldStartLoadWithRequest', () => {
  it('hands a wallet link, whole, to the OS and does not load it', () => {
    const { handlers, openURL } = setup()
    expect(handlers.onShouldStartLoadWithRequest(request(walletLink))).toBe(false)
    expect(openURL).toHaveBeenCalledExactlyOnceWith(walletLink)
  })

  it('does the same for a wallet’s own scheme', () => {
    const { handlers, openURL } = setup()
    expect(handlers.onShouldStartLoadWithRequest(request('metamask://wc?uri=wc:abc'))).toBe(false)
    expect(openURL).toHaveBeenCalledExactlyOnceWith('metamask://wc?uri=wc:abc')
  })

  it('ignores a failure to open it, whether the promise rejects or openURL throws', async () => {
    const rejecting = setup({ openURL: () => Promise.reject(new Error('No app can open this URL')) })
    expect(rejecting.handlers.onShouldStartLoadWithRequest(request(walletLink))).toBe(false)
    const throwing = setup({
      openURL: () => {
        throw new Error('not a promise')
      },
    })
    expect(throwing.handlers.onShouldStartLoadWithRequest(request(walletLink))).toBe(false)
    await new Promise((resolve) => setTimeout(resolve, 0)) // an unhandled rejection would fail the run
    expect(rejecting.onError).not.toHaveBeenCalled()
  })

  it.each([
    ['https://pay.example/checkout/pay_1', true],
    ['about:blank', true],
    ['tel:+15551234567', false],
    ['sms:+15551234567', false],
    ['intent://scan/#Intent;scheme=zxing;end', false],
    ['javascript:alert(1)', false],
    ['http://pay.example/', false],
    ['myapp://checkout/done', false],
    ['garbage', false],
  ])('%s loads: %s, and nothing goes to the OS', (url, loads) => {
    const { handlers, openURL } = setup()
    expect(handlers.onShouldStartLoadWithRequest(request(url))).toBe(loads)
    expect(openURL).not.toHaveBeenCalled()
  })

  it('loads http on a loopback host only with allowLoopbackHttp', () => {
    expect(setup().handlers.onShouldStartLoadWithRequest(request('http://127.0.0.1:4000/checkout/pay_1'))).toBe(false)
    const dev = setup({ allowLoopbackHttp: true })
    expect(dev.handlers.onShouldStartLoadWithRequest(request('http://127.0.0.1:4000/checkout/pay_1'))).toBe(true)
    expect(dev.handlers.onShouldStartLoadWithRequest(request('http://pay.example/checkout/pay_1'))).toBe(false)
  })
})

describe('onOpenWindow (window.open never reaches onShouldStartLoadWithRequest)', () => {
  it('hands a wallet link to the OS', () => {
    const { handlers, openURL } = setup()
    handlers.onOpenWindow(synthetic({ targetUrl: walletLink }))
    expect(openURL).toHaveBeenCalledExactlyOnceWith(walletLink)
  })

  it('opens an https page in the system browser, leaving the checkout where it is', () => {
    const { handlers, openURL } = setup()
    handlers.onOpenWindow(synthetic({ targetUrl: 'https://till.example/terms' }))
    expect(openURL).toHaveBeenCalledExactlyOnceWith('https://till.example/terms')
  })

  it.each(['tel:+15551234567', 'javascript:alert(1)', 'about:blank', 'intent://x#Intent;end', 'http://pay.example/', ''])(
    'drops %j',
    (targetUrl) => {
      const { handlers, openURL } = setup()
      handlers.onOpenWindow(synthetic({ targetUrl }))
      expect(openURL).not.toHaveBeenCalled()
    },
  )

  it('ignores a failure to open', async () => {
    const { handlers } = setup({ openURL: () => Promise.reject(new Error('no wallet')) })
    handlers.onOpenWindow(synthetic({ targetUrl: walletLink }))
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
})

describe('onMessage', () => {
  it('passes a success on, to be verified server-side', () => {
    const { handlers, onResult } = setup()
    handlers.onMessage(
      synthetic({ ...nativeEvent, url: 'https://pay.example/', data: '{"type":"PAY_SUCCESS","success":true,"message":"Paid"}' }),
    )
    expect(onResult).toHaveBeenCalledExactlyOnceWith({ kind: 'success', message: 'Paid' })
  })

  it('passes a failure on, with its reason', () => {
    const { handlers, onResult } = setup()
    handlers.onMessage(synthetic({ ...nativeEvent, url: 'https://pay.example/', data: '{"type":"PAY_FAILURE","error":"Expired"}' }))
    expect(onResult).toHaveBeenCalledExactlyOnceWith({ kind: 'failure', error: 'Expired' })
  })

  it.each(['not json', '{"type":"PAY_SUCCESS","success":false}', '{}', '{"hello":"world"}'])('ignores %j', (data) => {
    const { handlers, onResult } = setup()
    handlers.onMessage(synthetic({ ...nativeEvent, url: 'https://pay.example/', data }))
    expect(onResult).not.toHaveBeenCalled()
  })
})

describe('onError', () => {
  it('reports a failed load of the checkout', () => {
    const { handlers, onError } = setup()
    handlers.onError(synthetic({ ...nativeEvent, url: 'https://pay.example/', code: -2, description: 'net::ERR_NAME_NOT_RESOLVED' }))
    expect(onError).toHaveBeenCalledExactlyOnceWith({
      kind: 'load-failed',
      url: 'https://pay.example/',
      code: -2,
      description: 'net::ERR_NAME_NOT_RESOLVED',
    })
  })

  it('ignores the errors that cancelling a wallet link raises on iOS (NSURLErrorCancelled, frame load interrupted)', () => {
    const { handlers, onError } = setup()
    handlers.onError(synthetic({ ...nativeEvent, url: walletLink, code: -999, domain: 'NSURLErrorDomain', description: 'cancelled' }))
    handlers.onError(
      synthetic({ ...nativeEvent, url: walletLink, code: 102, domain: 'WebKitErrorDomain', description: 'Frame load interrupted' }),
    )
    expect(onError).not.toHaveBeenCalled()
    handlers.onError(
      synthetic({ ...nativeEvent, url: 'https://pay.example/', code: -1009, domain: 'NSURLErrorDomain', description: 'offline' }),
    )
    expect(onError).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ code: -1009, domain: 'NSURLErrorDomain' }))
  })

  it('reports a dead web content process', () => {
    const { handlers, onError } = setup()
    handlers.onRenderProcessGone(synthetic({ didCrash: true }))
    handlers.onContentProcessDidTerminate(synthetic(nativeEvent))
    expect(onError.mock.calls).toEqual([[{ kind: 'process-gone', didCrash: true }], [{ kind: 'process-gone' }]])
  })

  it('is optional', () => {
    const handlers = checkoutWebViewHandlers({ onResult: () => {}, openURL: () => Promise.resolve() })
    expect(() => handlers.onError(synthetic({ ...nativeEvent, url: 'https://x/', code: -2, description: 'x' }))).not.toThrow()
  })
})

describe('NATIVE_WEBVIEW_SHIM', () => {
  it('defines window.NativeWebView.postMessage on react-native-webview’s ReactNativeWebView, as a string', () => {
    const posted: unknown[] = []
    const window: Record<string, unknown> = { ReactNativeWebView: { postMessage: (data: unknown) => posted.push(data) } }
    // The injected script's last value is true, as react-native-webview asks of injected scripts.
    expect(runInNewContext(NATIVE_WEBVIEW_SHIM, { window })).toBe(true)
    ;(window.NativeWebView as { postMessage: (data: unknown) => void }).postMessage('{"type":"PAY_SUCCESS"}')
    expect(posted).toEqual(['{"type":"PAY_SUCCESS"}'])
  })

  it('keeps a NativeWebView the app already provides, and never throws without ReactNativeWebView', () => {
    const own = { postMessage: () => {} }
    const window: Record<string, unknown> = { NativeWebView: own }
    runInNewContext(NATIVE_WEBVIEW_SHIM, { window })
    expect(window.NativeWebView).toBe(own)
    const bare: Record<string, unknown> = {}
    runInNewContext(NATIVE_WEBVIEW_SHIM, { window: bare })
    expect(() => (bare.NativeWebView as { postMessage: (data: unknown) => void }).postMessage('x')).not.toThrow()
  })
})
