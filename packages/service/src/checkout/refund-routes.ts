// The refund pages' routes (issue 24), under the checkout's address: `<checkout>/refunds/<id>/claim` for the
// buyer and `<checkout>/refunds/<id>/pay` for the merchant, each with the token of its link. What makes a link
// single-use is the refund's status (refunds/links.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { AccountStore } from '../accounts/index.ts'
import type { Clock } from '../core/clock.ts'
import { ApiError } from '../errors.ts'
import { checksumAddress } from '../evm/index.ts'
import { LOGO_SIZES, type LogoUrl } from '../logos/index.ts'
import { networkName } from '../rails/index.ts'
import type { RefundLinks, RefundPage, RefundRails, RefundRecord, RefundService } from '../refunds/index.ts'
import type { CheckoutAssets } from './page-assets.ts'
import { claimedPageHtml, claimPageHtml, payPageHtml, type RefundPageData, refundNoticeHtml, refundStatusWords } from './refund-html.ts'
import { setCheckoutSecurityHeaders } from './security-headers.ts'

export type RefundPageDeps = {
  refunds: RefundService
  links: RefundLinks
  refundRails: RefundRails
  accounts: AccountStore
  logoUrl: LogoUrl
  assets: CheckoutAssets
  clock: Clock
  https: () => boolean
}

type PageRequest = FastifyRequest<{ Params: { refundId: string }; Querystring: { token?: string } }>

const ClaimForm = z.object({
  token: z.string().optional(),
  destination: z.string().trim().default(''),
  connected: z.string().optional(),
  confirm: z.string().optional(),
})
const TransactionForm = z.object({ transactionHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, { error: 'must be a transaction hash' }) })
const TestWalletForm = z.object({ token: z.string().optional(), walletId: z.string() })

// The claim page posts a plain form; only these routes read one.
const FORM = 'application/x-www-form-urlencoded'
// Pages post their forms to themselves: the checkout's CSP, with forms allowed back to this origin.
const REFUND_PAGE_CSP_FORMS = "form-action 'self'"

export function refundPageRoutes(app: FastifyInstance, deps: RefundPageDeps) {
  async function pageData(refund: RefundRecord): Promise<RefundPageData> {
    const merchant = await deps.accounts.findMerchant(refund.merchantId)
    return {
      refund: deps.refunds.view(refund),
      merchant: { name: merchant?.name ?? 'The shop', iconUrl: merchant ? deps.logoUrl(merchant.logo, LOGO_SIZES.page) : null },
      networkName: networkName(refund.network) ?? refund.network,
    }
  }

  function send(reply: FastifyReply, status: number, html: string) {
    setCheckoutSecurityHeaders(reply, { https: deps.https() })
    const csp = String(reply.getHeader('Content-Security-Policy')).replace("form-action 'none'", REFUND_PAGE_CSP_FORMS)
    return reply
      .code(status)
      .header('Content-Security-Policy', csp)
      .header('Cache-Control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html)
  }

  const notice = (reply: FastifyReply, status: number, title: string, body: string) =>
    send(reply, status, refundNoticeHtml({ assets: deps.assets, title, body }))

  /** The refund a link names, when its token is this page's; otherwise the page that says why not. */
  async function linked(request: PageRequest, reply: FastifyReply, page: RefundPage, token: string | undefined) {
    const refund = await deps.refunds.find(request.params.refundId)
    try {
      if (!refund) throw new ApiError('refund_link_invalid', 'no such refund')
      deps.links.check(page, refund.id, token)
    } catch {
      await notice(reply, 403, 'This refund link is not valid', 'Check that the whole link was copied, or ask the shop to send it again.')
      return undefined
    }
    return refund
  }

  async function paidFrom(refund: RefundRecord): Promise<string | null> {
    const account = await deps.refunds.whoPaid(refund)
    if (!account) return null
    const address = account.slice(account.lastIndexOf(':') + 1)
    return `${refund.network}:${checksumAddress(address)}`
  }

  async function claimPage(reply: FastifyReply, refund: RefundRecord, token: string, entered?: { destination: string; problem: string }) {
    if (refund.status === 'cancelled') {
      return notice(reply, 410, 'This refund was cancelled', 'The shop cancelled this refund. Contact them if you expected it.')
    }
    if (refund.status !== 'awaiting_destination') {
      const body = refund.destination
        ? 'The shop knows where to send your refund. Contact them if it has not arrived.'
        : 'The shop recorded this refund as paid. Contact them if it has not arrived.'
      return notice(reply, 410, 'This refund link was already used', body)
    }
    if (refund.claimExpiresAt <= deps.clock.now()) {
      return notice(reply, 410, 'This refund link has expired', 'Ask the shop for a new link.')
    }
    const html = claimPageHtml({
      assets: deps.assets,
      data: await pageData(refund),
      token,
      paidFrom: await paidFrom(refund),
      ...(entered ? { entered } : {}),
    })
    return send(reply, entered ? 400 : 200, html)
  }

  app.register(async (scope) => {
    scope.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))))
    })

    scope.get<{ Params: { refundId: string }; Querystring: { token?: string } }>(
      '/checkout/refunds/:refundId/claim',
      async (request, reply) => {
        const refund = await linked(request, reply, 'claim', request.query.token)
        if (refund) return claimPage(reply, refund, request.query.token ?? '')
        return reply
      },
    )

    scope.post<{ Params: { refundId: string }; Querystring: { token?: string } }>(
      '/checkout/refunds/:refundId/claim',
      async (request, reply) => {
        const form = ClaimForm.safeParse(request.body ?? {})
        const fields = form.success ? form.data : { destination: '', token: undefined, connected: undefined, confirm: undefined }
        const refund = await linked(request, reply, 'claim', fields.token)
        if (!refund) return reply
        const token = fields.token ?? ''
        if (fields.confirm !== '1') {
          return claimPage(reply, refund, token, {
            destination: fields.destination,
            problem: 'Confirm that you control this account first.',
          })
        }
        // The wallet's own answer cannot hold a typo: only a typed address must carry its checksum.
        const separator = fields.destination.lastIndexOf(':')
        const destination =
          fields.connected === '1' && separator > 0
            ? `${fields.destination.slice(0, separator)}:${checksumAddress(fields.destination.slice(separator + 1))}`
            : fields.destination
        try {
          const claimed = await deps.refunds.claim(refund.id, destination)
          return send(reply, 200, claimedPageHtml({ assets: deps.assets, data: await pageData(claimed) }))
        } catch (error) {
          if (error instanceof ApiError && error.code === 'params_validation') {
            const problem = `This account ${error.issues?.[0]?.message ?? 'is not valid'}.`
            return claimPage(reply, refund, token, { destination: fields.destination, problem })
          }
          if (error instanceof ApiError && error.status === 410)
            return claimPage(reply, (await deps.refunds.find(refund.id)) ?? refund, token)
          throw error
        }
      },
    )

    scope.get<{ Params: { refundId: string }; Querystring: { token?: string } }>(
      '/checkout/refunds/:refundId/pay',
      async (request, reply) => {
        const refund = await linked(request, reply, 'pay', request.query.token)
        if (!refund) return reply
        const waiting = refund.status === 'awaiting_destination' || refund.status === 'ready'
        if (waiting && deps.links.of(refund, deps.clock.now()).payUrl === null) {
          return notice(reply, 410, 'This refund link has expired', 'Cancel the refund and create a new one for a new link.')
        }
        const testWallets = deps.refundRails[refund.rail]?.testWallets ?? []
        return send(
          reply,
          200,
          payPageHtml({ assets: deps.assets, data: await pageData(refund), token: request.query.token ?? '', testWallets }),
        )
      },
    )

    // The sandbox's test wallets, as a plain form: they play the merchant's wallet.
    scope.post<{ Params: { refundId: string }; Querystring: { token?: string } }>(
      '/checkout/refunds/:refundId/pay',
      async (request, reply) => {
        const form = TestWalletForm.safeParse(request.body ?? {})
        const refund = await linked(request, reply, 'pay', form.success ? form.data.token : undefined)
        if (!refund) return reply
        const wallet = (deps.refundRails[refund.rail]?.testWallets ?? []).find(
          (candidate) => candidate.id === (form.success ? form.data.walletId : ''),
        )
        const pay = deps.refundRails[refund.rail]?.pay
        const open = deps.links.of(refund, deps.clock.now()).payUrl !== null
        if (wallet && pay && open && refund.status === 'ready') await pay(refund, wallet.outcome)
        return reply
          .code(303)
          .header('Location', `./pay?token=${encodeURIComponent(form.success ? (form.data.token ?? '') : '')}`)
          .send()
      },
    )

    // The pay page's script posts the hash its wallet sent; the answer is JSON.
    scope.post<{ Params: { refundId: string }; Querystring: { token?: string } }>(
      '/checkout/refunds/:refundId/transaction',
      async (request, reply) => {
        const refund = await deps.refunds.find(request.params.refundId)
        if (!refund) throw new ApiError('refund_link_invalid', 'This refund link is not valid.')
        deps.links.check('pay', refund.id, request.query.token)
        const body = TransactionForm.safeParse(request.body)
        if (!body.success)
          throw new ApiError('params_validation', 'transactionHash must be a transaction hash.', {
            issues: [{ field: 'transactionHash', message: 'must be 0x and 64 hexadecimal digits' }],
          })
        const submitted = await deps.refunds.payWithTransaction(refund.id, body.data.transactionHash)
        return reply.header('Cache-Control', 'no-store').send({ status: submitted.status, words: refundStatusWords(submitted) })
      },
    )

    scope.get<{ Params: { refundId: string }; Querystring: { token?: string } }>(
      '/checkout/refunds/:refundId/status',
      async (request, reply) => {
        const refund = await deps.refunds.find(request.params.refundId)
        if (!refund) throw new ApiError('refund_link_invalid', 'This refund link is not valid.')
        deps.links.check('pay', refund.id, request.query.token)
        return reply.header('Cache-Control', 'no-store').send({ status: refund.status, words: refundStatusWords(refund) })
      },
    )
  })
}
