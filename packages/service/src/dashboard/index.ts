// The dashboard area's door: what the rest of the service may use of it. Everything else in dashboard/ is its
// own (src/areas.test.ts checks it); its builder, area.ts, is for the composition root, app.ts, alone.
export { DASHBOARD_ROLES, type DashboardRole } from './people.ts'
export { type DashboardPeople, dashboardPeople } from './service.ts'
export { dashboardUrls } from './urls.ts'
