// Building blocks of the OpenAPI document's operations, shared by openapi.ts and openapi-webhooks.ts.
import { type Json, ref } from './openapi-components.ts'
import { API_VERSION_HEADER } from './headers.ts'

export function jsonResponse(description: string, schemaRef: Json, headers: Json = {}): Json {
  return {
    description,
    headers: { [API_VERSION_HEADER]: { $ref: '#/components/headers/PayVersion' }, ...headers },
    content: { 'application/json': { schema: schemaRef } },
  }
}

/** A response without a body (204), still with the resolved Pay-Version. */
export function emptyResponse(description: string): Json {
  return { description, headers: { [API_VERSION_HEADER]: { $ref: '#/components/headers/PayVersion' } } }
}

export const errorResponse = (status: number): Json => ({ $ref: `#/components/responses/Error${status}` })

// Every operation is under /v1: every request counts against the rate limits (429), and any may find the
// database restarting (503).
export function errors(...statuses: number[]): Json {
  return Object.fromEntries([...statuses, 429, 503].map((s) => [String(s), errorResponse(s)]))
}

export const pathParam = (name: string, schemaId: string, description: string): Json => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: ref(schemaId),
})

export const versionParam: Json = { $ref: '#/components/parameters/PayVersion' }

export function jsonBody(schemaRef: Json): Json {
  return { required: true, content: { 'application/json': { schema: schemaRef } } }
}

/** What every area's operations are described with: the request schemas' ids, and the merchant API's auth. */
export type OperationContext = { input: (id: string) => Json; merchantAuth: Json[] }
