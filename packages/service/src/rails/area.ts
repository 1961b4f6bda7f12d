import { DEFAULT_EVM_TIMING } from '../app-config.ts'
import type { AreaContext, V1Routes } from '../area-context.ts'
import { sandboxRail, sandboxRoutes } from '../sandbox/index.ts'
import type { PaymentsArea } from '../payments/index.ts'
import { type PaymentRail, paymentRails } from './rail.ts'

/**
 * The rails buyers pay through: the EVM rail, when configured, on real networks for live partners or on
 * test networks for sandbox partners; the sandbox's test wallets for sandbox partners otherwise. With them,
 * the sandbox's own API (simulate, confirm, reach the deadline) in sandbox mode.
 */
export async function railsArea(ctx: AreaContext, { payments }: Pick<PaymentsArea, 'payments'>) {
  const { app, db, clock, config, accounts } = ctx
  const list: PaymentRail[] = []
  if (config.sandbox && !ctx.evm?.config.sandbox) {
    const slowConfirmMs = config.sandboxHoldConfirmations ? 'held' : (config.sandboxSlowConfirmMs ?? 8_000)
    list.push(
      sandboxRail({ db, payments, accounts, clock, log: app.log, slowConfirmMs, confirmIntervalMs: ctx.jobs.sandboxConfirmationsMs }),
    )
  }
  if (ctx.evm) {
    // viem and the rail load only where a configuration names networks (bench/startup).
    const { evmRail } = await import('../evm/lazy.ts')
    const timing = { ...DEFAULT_EVM_TIMING, ...ctx.evm.timing }
    list.push(evmRail({ db, payments, accounts, clock, log: app.log, config: ctx.evm.config, timing }))
  }
  const rails = paymentRails(list)
  app.addHook('onReady', async () => rails.start())
  app.addHook('onClose', async () => rails.stop())
  const v1: V1Routes = (routes) => {
    if (config.sandbox) sandboxRoutes(routes, { auth: ctx.auth, payments, accounts, clock, logoUrl: ctx.logoUrl })
  }
  return { rails, v1 }
}
