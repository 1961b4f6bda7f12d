import { describe, expect, it } from 'vitest'
import { BridgeMessage, bridgeMessage, interpretBridgeMessage, WEBVIEW_QUERY } from './bridge.ts'

describe('interpretBridgeMessage', () => {
  it.each([
    ['{"type":"PAY_SUCCESS"}', 'success'],
    ['{"success":true}', 'success'],
    ['{"type":"PAY_SUCCESS","success":true,"message":"Paid 10 USDC"}', 'success'],
    ['{"type":"PAY_FAILURE"}', 'failure'],
    ['{"success":false}', 'failure'],
    ['{"type":"PAY_FAILURE","success":false,"error":"Rejected"}', 'failure'],
    ['{"success":true,"message":42}', 'success'],
    ['{"type":"PAY_FAILURE","error":{"code":1}}', 'failure'],
    [' {"success":true} ', 'success'],
    ['{"type":"PAY_SUCCESS","extra":[1,2]}', 'success'],
  ])('reads %s as %s', (raw, outcome) => {
    expect(interpretBridgeMessage(raw)).toBe(outcome)
  })

  it.each([
    ['not json', 'invalid JSON'],
    ['', 'empty'],
    ['{"type":"PAY_SUCCESS"', 'truncated JSON'],
    ['{}', 'neither field'],
    ['{"message":"hi"}', 'neither field'],
    ['null', 'not an object'],
    ['true', 'not an object'],
    ['"PAY_SUCCESS"', 'a bare string'],
    ['["PAY_SUCCESS"]', 'an array'],
    ['{"type":"PAY_SUCCESS","success":false}', 'contradiction'],
    ['{"type":"PAY_FAILURE","success":true}', 'contradiction'],
    ['{"type":"pay_success"}', 'unknown type'],
    ['{"type":"PAY_PENDING","success":true}', 'unknown type'],
    ['{"success":"true"}', 'non-boolean success'],
    ['{"success":1}', 'non-boolean success'],
  ])('ignores %s (%s)', (raw) => {
    expect(interpretBridgeMessage(raw)).toBeNull()
  })
})

describe('bridgeMessage', () => {
  it('sends both type and success', () => {
    expect(JSON.parse(bridgeMessage('success'))).toEqual({ type: 'PAY_SUCCESS', success: true })
    expect(JSON.parse(bridgeMessage('failure'))).toEqual({ type: 'PAY_FAILURE', success: false })
  })

  it('puts the text in message on success and in error on failure', () => {
    expect(JSON.parse(bridgeMessage('success', 'Paid 10 USDC'))).toEqual({ type: 'PAY_SUCCESS', success: true, message: 'Paid 10 USDC' })
    expect(JSON.parse(bridgeMessage('failure', 'Rejected'))).toEqual({ type: 'PAY_FAILURE', success: false, error: 'Rejected' })
  })

  it('round-trips through interpretBridgeMessage and the schema', () => {
    for (const outcome of ['success', 'failure'] as const) {
      const raw = bridgeMessage(outcome, 'text "with" quotes')
      expect(interpretBridgeMessage(raw)).toBe(outcome)
      expect(BridgeMessage.safeParse(JSON.parse(raw)).success).toBe(true)
    }
  })
})

describe('BridgeMessage', () => {
  it('needs type or success', () => {
    expect(BridgeMessage.safeParse({ message: 'x' }).success).toBe(false)
    expect(BridgeMessage.safeParse({ type: 'PAY_SUCCESS' }).success).toBe(true)
    expect(BridgeMessage.safeParse({ success: false }).success).toBe(true)
  })
})

describe('WEBVIEW_QUERY', () => {
  it('names the two WebView parameters of spec 4.8', () => {
    expect(WEBVIEW_QUERY).toEqual({ returnUrl: 'returnUrl', preferUniversalLinks: 'preferUniversalLinks' })
  })
})
