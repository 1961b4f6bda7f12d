import { DEFAULT_EVM_TIMING } from '../app-config.ts'
import type { AreaContext, V1Routes } from '../area-context.ts'
import type { RefundRails } from '../refunds/index.ts'
import { sandboxRail, sandboxRefunds, sandboxRoutes } from '../sandbox/index.ts'
import type { PaymentsArea } from '../payments/index.ts'
import { type PaymentRail, paymentRails } from './rail.ts'
import { chainObserver } from '../metrics/index.ts'

/**
 * The rails buyers pay through: the EVM rail, when configured, on real networks for live partners or on
 * test networks for sandbox partners; the sandbox's test wallets for sandbox partners otherwise. With them,
 * the sandbox's own API (simulate, confirm, reach the deadline) in sandbox mode.
 */
export async function railsArea(ctx: AreaContext, { payments }: Pick<PaymentsArea, 'payments'>) {
  const { app, db, clock, config, accounts } = ctx
  const list: PaymentRail[] = []
  // Refunds are paid on the rail their payment was: the sandbox's test wallets, or an EVM network.
  const refundRails: RefundRails = {}
  const followers: { start(): void; stop(): Promise<void> }[] = []
  if (config.sandbox && !ctx.evm?.config.sandbox) {
    refundRails.sandbox = sandboxRefunds({ db, clock })
    const slowConfirmMs = config.sandboxHoldConfirmations ? 'held' : (config.sandboxSlowConfirmMs ?? 8_000)
    list.push(
      sandboxRail({ db, payments, accounts, clock, log: app.log, slowConfirmMs, confirmIntervalMs: ctx.jobs.sandboxConfirmationsMs }),
    )
  }
  if (ctx.evm) {
    // viem and the rail load only where a configuration names networks (bench/startup).
    const { evmRail, evmRefunds } = await import('../evm/lazy.ts')
    const timing = { ...DEFAULT_EVM_TIMING, ...ctx.evm.timing }
    const observe = chainObserver(ctx.metrics)
    list.push(evmRail({ db, payments, accounts, clock, log: app.log, config: ctx.evm.config, timing, observe }))
    const refunds = evmRefunds({ db, clock, log: app.log, config: ctx.evm.config, timing })
    refundRails.evm = refunds
    followers.push(refunds)
  }
  const rails = paymentRails(list)
  app.addHook('onReady', async () => {
    await rails.start()
    for (const follower of followers) follower.start()
  })
  app.addHook('onClose', async () => {
    await rails.stop()
    await Promise.all(followers.map((follower) => follower.stop()))
  })
  const v1: V1Routes = (routes) => {
    if (config.sandbox) sandboxRoutes(routes, { auth: ctx.auth, payments, accounts, clock, logoUrl: ctx.logoUrl })
  }
  return { rails, refundRails, v1 }
}
