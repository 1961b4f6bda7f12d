import type { FastifyRequest } from 'fastify'
import { ApiError } from '../errors.ts'
import { header } from '../http/context.ts'
import type { DashboardUser } from './people.ts'
import type { DashboardPeople } from './service.ts'
import type { Session } from './sessions.ts'
import { sessionTokenOf } from './sessions.ts'

/** The header the dashboard's browser code sends the session's CSRF token in. */
export const CSRF_HEADER = 'X-CSRF-Token'

export type SignedInRequest = { user: DashboardUser; session: Session }

/**
 * Who is asking, for the dashboard's routes: every state-changing request must come from the dashboard's own
 * origin and, once signed in, carry the session's CSRF token: a cookie alone changes nothing.
 */
export function sessionGuards(people: DashboardPeople, publicOrigin: () => string) {
  /** Login CSRF too: a sign-in or an invitation answered from another site's form is refused. */
  function sameOrigin(request: FastifyRequest): void {
    if (header(request, 'Origin') !== publicOrigin()) {
      throw new ApiError('csrf_refused', 'This request did not come from the dashboard’s own pages.')
    }
  }

  const reading = (request: FastifyRequest): Promise<SignedInRequest> => people.authenticate(sessionTokenOf(header(request, 'Cookie')))

  async function changing(request: FastifyRequest): Promise<SignedInRequest> {
    const signed = await reading(request)
    sameOrigin(request)
    if (header(request, CSRF_HEADER) !== signed.session.csrfToken) {
      throw new ApiError('csrf_refused', `This request did not carry the session’s ${CSRF_HEADER}.`)
    }
    return signed
  }

  return { sameOrigin, reading, changing }
}

export type SessionGuards = ReturnType<typeof sessionGuards>
