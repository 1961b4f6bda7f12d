import { routePath } from '@till/contract'
import Fastify, { type FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { accepts, bindOperations } from './operations.ts'

/** An app whose v1 routes answer with the operation they were bound to and the ways in it accepts. */
async function v1App(declare: (v1: FastifyInstance) => void): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(async (v1) => {
    bindOperations(v1)
    declare(v1)
  })
  await app.ready()
  return app
}

const describeRoute = async (request: Parameters<typeof accepts>[0], reply: { header(name: string, value: string): unknown }) => {
  reply.header('x-operation', request.routeOptions.config.operation ?? 'none')
  reply.header('x-accepts', (['partnerKey', 'merchantKey', 'bearer', 'walletApp'] as const).filter((s) => accepts(request, s)).join(' '))
  return ''
}

describe('bindOperations', () => {
  it("binds each route to its operation, and the route accepts the operation's ways in", async () => {
    const app = await v1App((v1) => {
      v1.get(routePath('PartnerPayments_list'), describeRoute)
      v1.post(routePath('Merchants_create'), describeRoute)
      v1.get(routePath('MerchantPayment_status'), describeRoute)
    })
    const headersOf = async (method: 'GET' | 'HEAD' | 'POST', url: string) => {
      const { headers } = await app.inject({ method, url })
      return [headers['x-operation'], headers['x-accepts']]
    }
    expect(await headersOf('GET', '/v1/payments')).toEqual(['PartnerPayments_list', 'partnerKey walletApp'])
    // Fastify's HEAD twin of the GET route is the same operation.
    expect(await headersOf('HEAD', '/v1/payments')).toEqual(['PartnerPayments_list', 'partnerKey walletApp'])
    expect(await headersOf('POST', '/v1/merchants')).toEqual(['Merchants_create', 'partnerKey bearer'])
    expect(await headersOf('GET', '/v1/merchant/payment/pay_1/status')).toEqual(['MerchantPayment_status', 'merchantKey'])
    await app.close()
  })

  it('refuses a route the table does not declare, at start-up', async () => {
    await expect(v1App((v1) => v1.get('/v1/unlisted', describeRoute))).rejects.toThrow(/GET \/v1\/unlisted is not an operation/)
    await expect(v1App((v1) => v1.put(routePath('Merchants_update'), describeRoute))).rejects.toThrow(/is not an operation/)
  })
})
