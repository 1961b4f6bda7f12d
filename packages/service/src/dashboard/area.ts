import type { AreaContext } from '../area-context.ts'
import { dashboardRoutes } from './routes.ts'
import { dashboardPeople } from './service.ts'
import { dashboardUrls } from './urls.ts'

/**
 * The dashboard (issue 25): its people, their sessions and the audit log, over session-authenticated routes
 * under /dashboard/api/. The browser code that uses them comes with packages/dashboard.
 */
export function dashboardArea(ctx: AreaContext) {
  const people = dashboardPeople({ db: ctx.db, clock: ctx.clock })
  const urls = dashboardUrls(ctx.config)
  dashboardRoutes(ctx.app, { people, publicOrigin: urls.origin, invitationUrl: urls.invitation })
  return { people }
}
