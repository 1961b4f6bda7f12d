import { bridgeMessage } from '@till/contract'
import { describe, expect, it } from 'vitest'
import { parseBridgeMessage } from './bridge.ts'

describe('parseBridgeMessage: spec 4.8 rules 1–2', () => {
  it.each([
    // Rule 1: type alone, success alone, or both agreeing.
    ['{"type":"PAY_SUCCESS"}', { kind: 'success' }],
    ['{"success":true}', { kind: 'success' }],
    ['{"type":"PAY_SUCCESS","success":true}', { kind: 'success' }],
    ['{"type":"PAY_SUCCESS","success":true,"message":"Paid 19.99 USDC"}', { kind: 'success', message: 'Paid 19.99 USDC' }],
    ['{"success":true,"message":"Paid"}', { kind: 'success', message: 'Paid' }],
    ['{"type":"PAY_FAILURE"}', { kind: 'failure' }],
    ['{"success":false}', { kind: 'failure' }],
    ['{"type":"PAY_FAILURE","success":false}', { kind: 'failure' }],
    [
      '{"type":"PAY_FAILURE","success":false,"error":"The wallet rejected the request"}',
      { kind: 'failure', error: 'The wallet rejected the request' },
    ],
    // Extra fields are ignored; the texts go only with their own outcome; a wrongly typed text is dropped.
    ['{"type":"PAY_SUCCESS","paymentId":"pay_1","extra":[1,2]}', { kind: 'success' }],
    ['{"type":"PAY_SUCCESS","error":"not for a success"}', { kind: 'success' }],
    ['{"type":"PAY_FAILURE","message":"not for a failure"}', { kind: 'failure' }],
    ['{"success":true,"message":42}', { kind: 'success' }],
    ['{"type":"PAY_FAILURE","error":{"code":1}}', { kind: 'failure' }],
    [' {"success":true} ', { kind: 'success' }],
  ])('reads %s', (data, expected) => {
    expect(parseBridgeMessage(data)).toEqual(expected)
  })

  it.each([
    // Rule 2: not valid JSON.
    ['not json', 'not valid JSON'],
    ['', 'not valid JSON'],
    ['{"type":"PAY_SUCCESS"', 'not valid JSON'],
    ["{'type':'PAY_SUCCESS'}", 'not valid JSON'],
    // JSON, but not a bridge message.
    ['{}', /^not a bridge message/],
    ['{"message":"Paid"}', /^not a bridge message/],
    ['null', /^not a bridge message/],
    ['"PAY_SUCCESS"', /^not a bridge message/],
    ['["PAY_SUCCESS"]', /^not a bridge message/],
    ['{"type":"pay_success"}', /^not a bridge message/],
    ['{"type":"PAY_PENDING"}', /^not a bridge message/],
    ['{"success":"true"}', /^not a bridge message/],
    ['{"success":1}', /^not a bridge message/],
    // Contradictions.
    ['{"type":"PAY_SUCCESS","success":false}', 'type and success contradict each other'],
    ['{"type":"PAY_FAILURE","success":true,"message":"Paid"}', 'type and success contradict each other'],
  ])('ignores %j', (data, reason) => {
    const signal = parseBridgeMessage(data)
    expect(signal.kind).toBe('ignored')
    expect(signal.kind === 'ignored' && signal.reason).toMatch(reason)
  })

  it.each([
    [{ type: 'PAY_SUCCESS', success: true }, 'not a string (got object)'],
    [null, 'not a string (got null)'],
    [undefined, 'not a string (got undefined)'],
    [true, 'not a string (got boolean)'],
    [1, 'not a string (got number)'],
  ])('ignores what is not a string: %j', (data, reason) => {
    expect(parseBridgeMessage(data)).toEqual({ kind: 'ignored', reason })
  })

  it('reads what the checkout page sends (the contract’s bridgeMessage)', () => {
    expect(parseBridgeMessage(bridgeMessage('success', 'Paid 19.99 USDC'))).toEqual({ kind: 'success', message: 'Paid 19.99 USDC' })
    expect(parseBridgeMessage(bridgeMessage('failure', 'Expired'))).toEqual({ kind: 'failure', error: 'Expired' })
    expect(parseBridgeMessage(bridgeMessage('success'))).toEqual({ kind: 'success' })
  })
})
