import type { AreaContext } from '../area-context.ts'
import { periodic, runsWith } from '../core/periodic.ts'
import { DEFAULT_RETENTION, pruneOnce } from './prune.ts'

/** Bounded growth (issue 27, point 4): what is past its retention is pruned in small batches, every interval. */
export function retentionArea(ctx: AreaContext): void {
  const { app, db, clock } = ctx
  if (ctx.jobs.retentionMs <= 0) return
  const policy = { ...DEFAULT_RETENTION, ...(ctx.config.webhookRetentionDays ? { webhookDays: ctx.config.webhookRetentionDays } : {}) }
  runsWith(
    app,
    periodic({
      name: 'retention',
      intervalMs: ctx.jobs.retentionMs,
      log: app.log,
      run: async () => {
        const pruned = await pruneOnce(db, clock.now(), policy)
        const rows = Object.values(pruned).reduce((sum, count) => sum + count, 0)
        if (rows > 0) app.log.info({ pruned }, 'pruned rows past their retention')
      },
    }),
  )
}
