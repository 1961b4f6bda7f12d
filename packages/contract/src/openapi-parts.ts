// Building blocks of the OpenAPI document's operations. An area's module writes an operation's prose and
// parameters (OperationText); describeOperation adds what the operations table declares of it: who may call
// it, its bodies and its errors, so the document cannot say otherwise than the service does.
import { type Json, ref } from './openapi-components.ts'
import { API_VERSION_HEADER } from './headers.ts'
import { type AuthScheme, type BodySchema, EVERY_OPERATION_ERRORS, type OperationId, operation, type SuccessStatus } from './operations.ts'

const payVersionHeader: Json = { [API_VERSION_HEADER]: { $ref: '#/components/headers/PayVersion' } }

export function jsonResponse(description: string, schemaRef: Json, headers: Json = {}): Json {
  return {
    description,
    headers: { ...payVersionHeader, ...headers },
    content: { 'application/json': { schema: schemaRef } },
  }
}

const errorResponse = (status: number): Json => ({ $ref: `#/components/responses/Error${status}` })

export const pathParam = (name: string, schemaId: string, description: string): Json => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: ref(schemaId),
})

/** Every operation takes Pay-Version: none is gated by version (operations.ts). */
const versionParam: Json = { $ref: '#/components/parameters/PayVersion' }

/** The OpenAPI security requirement of each way in. */
export const SECURITY: Record<AuthScheme, Json> = {
  partnerKey: { ApiKey: [] },
  merchantKey: { ApiKey: [], MerchantId: [] },
  bearer: { BearerAuth: [] },
  walletApp: { AppId: [], ClientId: [] },
}

/** A success response's description, with its headers besides Pay-Version when it has any. */
export type ResponseText = string | { description: string; headers: Json }

/** What an area's module writes of an operation; the rest is the operations table's. */
export type OperationText = {
  summary: string
  description?: string
  /** Besides Pay-Version. */
  parameters?: Json[]
  /** One for each success status the table declares. */
  responses: Partial<Record<SuccessStatus, ResponseText>>
}

export type OperationTexts = Partial<Record<OperationId, OperationText>>

function successResponse(text: ResponseText, body: BodySchema): Json {
  const { description, headers } = typeof text === 'string' ? { description: text, headers: {} } : text
  if (body === null) return { description, headers: { ...payVersionHeader, ...headers } }
  return jsonResponse(description, typeof body === 'string' ? ref(body) : body, headers)
}

/** An operation's document entry; `input` names a request schema's component as clients send it. */
export function describeOperation(id: OperationId, text: OperationText, input: (schemaId: string) => Json): Json {
  const { auth, errors, request, responses } = operation(id)
  const statuses = Object.keys(responses).map(Number) as SuccessStatus[]
  if (Object.keys(text.responses).join() !== statuses.join()) {
    throw new Error(`${id}: the table answers ${statuses.join(', ')}; its description has ${Object.keys(text.responses).join(', ')}`)
  }
  const success = statuses.map((status) => [String(status), successResponse(text.responses[status] ?? '', responses[status] ?? null)])
  return {
    summary: text.summary,
    description: text.description,
    security: auth.map((scheme) => SECURITY[scheme]),
    parameters: [versionParam, ...(text.parameters ?? [])],
    requestBody: request === undefined ? undefined : { required: true, content: { 'application/json': { schema: input(request) } } },
    responses: Object.fromEntries([...success, ...[...errors, ...EVERY_OPERATION_ERRORS].map((s) => [String(s), errorResponse(s)])]),
  }
}
