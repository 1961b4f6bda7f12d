// The metrics area's door: what the rest of the service may use of it. Everything else in metrics/ is its
// own; its builder, area.ts, is for the composition root, app.ts, alone.
export { type TillMetrics, tillMetrics } from './catalog.ts'
export { listenForMetrics, type MetricsListener } from './listener.ts'
export { chainObserver, paymentObserver } from './observers.ts'
