// The retention area's door: what the rest of the service may use of it. Everything else in retention/ is
// its own; its builder, area.ts, is for the composition root, app.ts, alone.
export { DEFAULT_RETENTION, pruneOnce, type RetentionPolicy } from './prune.ts'
