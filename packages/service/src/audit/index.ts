// The audit log's door (issue 25, point 4): who did what, when and from where, written by the dashboard,
// the API (key and webhook changes) and the command line alike. Everything else in audit/ is its own.
export { type AuditAction, type AuditEntry, type AuditLog, type AuditRecord, auditLog } from './log.ts'
