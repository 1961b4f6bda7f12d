// The evm area's door: what the rest of the service may use of it. Everything else in evm/ is its own
// (src/areas.test.ts checks it).
export { checkEvmAccount } from './accounts.ts'
export { checksumAddress } from './checksum.ts'
export { ConfigError, loadEvmConfig } from './config.ts'
export type { EvmConfig } from './config.ts'
export type { EvmTiming } from './rail.ts'
export type { ChainObserver } from './watcher.ts'
export { ADDRESS_PATTERN, chainIdOf, failsChecksum } from './ids.ts'
export { evmTransfers } from './transfers.ts'
export { UnappliedCursorError, unappliedTransfers } from './unapplied.ts'
export type { RecordedUnappliedTransfer, UnappliedPage, UnappliedTransfer } from './unapplied.ts'
export { unappliedSnapshotView, unappliedTransferPages, unappliedTransferView } from './unapplied-views.ts'
