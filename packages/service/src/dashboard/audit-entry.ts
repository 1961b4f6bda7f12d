import type { FastifyRequest } from 'fastify'
import type { AuditAction, AuditEntry } from '../audit/index.ts'
import type { DashboardUser } from './people.ts'

/** What a signed-in user did from this request, as the audit log records it: who, what, when, from where. */
export function byUser(
  user: DashboardUser,
  request: FastifyRequest,
  entry: { action: AuditAction; target: string; at: Date; details?: Record<string, unknown> },
): AuditEntry {
  return { partnerId: user.partnerId, userId: user.id, actor: user.email, address: request.ip, ...entry }
}
