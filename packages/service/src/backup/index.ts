// The backup area's door (docs/decisions/0035-backups.md): what the rest of the service may use of it.
// Everything else in backup/ is its own (src/areas.test.ts checks it).
export { BackupRefused } from './format.ts'
export { type RestoreSummary, restoreBackup } from './restore.ts'
export { type BackupSummary, writeBackup } from './snapshot.ts'
export { type ReachedServer, reachDataDir } from './source.ts'
