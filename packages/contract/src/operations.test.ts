import { describe, expect, it } from 'vitest'
import { OPERATIONS, operationPath, routePath } from './operations.ts'

describe('the operations table', () => {
  it('gives a router its path, with `:name` for each parameter', () => {
    expect(routePath('MerchantPayment_status')).toBe('/v1/merchant/payment/:id/status')
    expect(routePath('WebhookEndpoints_redeliver')).toBe('/v1/webhook-endpoints/:endpointId/deliveries/:deliveryId/redeliver')
    expect(routePath('PartnerPayments_list')).toBe('/v1/payments')
  })

  it('gives a client its path, each parameter percent-encoded so no value can change the route', () => {
    expect(operationPath('Merchants_update', { merchantId: 'mer_1' })).toBe('/v1/merchants/mer_1')
    expect(operationPath('WebhookEndpoints_redeliver', { endpointId: '../x', deliveryId: 'a/b?c' })).toBe(
      '/v1/webhook-endpoints/..%2Fx/deliveries/a%2Fb%3Fc/redeliver',
    )
  })

  it('declares each method and path once', () => {
    const routes = Object.values(OPERATIONS).map(({ method, path }) => `${method} ${path}`)
    expect(new Set(routes).size).toBe(routes.length)
  })
})
