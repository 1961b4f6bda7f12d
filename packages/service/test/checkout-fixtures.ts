import { CheckoutSession } from '@till/contract'
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import { z } from 'zod'
import { createBody, type Account } from './fixtures.ts'

/** A payment created through the merchant API, and the checkout token its page was served with. */
export type CheckoutPayment = { paymentId: string; token: string; html: string }

export async function createCheckoutPayment(
  app: FastifyInstance,
  account: Account,
  body: Record<string, unknown> = {},
): Promise<CheckoutPayment> {
  const created = await app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: account.headers, payload: createBody(body) })
  expect(created.statusCode).toBe(201)
  const { paymentId } = created.json<{ paymentId: string }>()
  const page = await app.inject({ url: `/checkout/${paymentId}` })
  expect(page.statusCode).toBe(200)
  return { paymentId, token: embeddedData(page.body).token, html: page.body }
}

/** The JSON the page embeds for its script: the checkout session less what the HTML shows already, and nothing more. */
const EmbeddedData = z
  .object({
    token: z.string(),
    session: CheckoutSession.pick({ paymentId: true, sandbox: true, localChain: true, wallets: true, state: true })
      .extend({ merchant: z.object({ name: z.string() }).strict() })
      .strict(),
  })
  .strict()

export function embeddedData(html: string): z.infer<typeof EmbeddedData> {
  const match = /<script type="application\/json" id="checkout-data">([^<]*)<\/script>/.exec(html)
  if (!match?.[1]) throw new Error('the page embeds no checkout data')
  return EmbeddedData.parse(JSON.parse(match[1]))
}

export const gatewayCall = (
  app: FastifyInstance,
  payment: Pick<CheckoutPayment, 'paymentId' | 'token'>,
  path: string,
  init: { method?: 'GET' | 'POST'; payload?: object; token?: string | null } = {},
) =>
  app.inject({
    method: init.method ?? 'GET',
    url: `/checkout/api/payments/${payment.paymentId}${path}`,
    headers: init.token === null ? {} : { 'checkout-token': init.token ?? payment.token },
    ...(init.payload ? { payload: init.payload } : {}),
  })

export const buyer = (network = 'eip155:8453') => `${network}:0x52908400098527886e0f7030069857d2e4169ee7`
