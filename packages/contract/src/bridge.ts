import { z } from 'zod'

/** Query parameters the host app sets on `gatewayUrl` before loading it in a WebView (spec 4.8). */
export const WEBVIEW_QUERY = { returnUrl: 'returnUrl', preferUniversalLinks: 'preferUniversalLinks' } as const

export const BridgeMessage = z
  .object({
    type: z.enum(['PAY_SUCCESS', 'PAY_FAILURE']).optional(),
    success: z.boolean().optional(),
    // The texts are informational; a wrongly typed one must not make a real outcome unreadable.
    message: z.string().optional().catch(undefined),
    error: z.string().optional().catch(undefined),
  })
  .refine((m) => m.type !== undefined || m.success !== undefined, { error: 'must carry type or success' })
  .meta({
    id: 'BridgeMessage',
    description:
      'JSON string posted by the checkout page through window.NativeWebView.postMessage. It only prompts a server-side status check.',
  })
export type BridgeMessage = z.infer<typeof BridgeMessage>

export type BridgeOutcome = 'success' | 'failure'

/**
 * Reads a bridge message. Anything that does not say one clear thing is null: invalid JSON, neither
 * field, an unknown type, or `type` and `success` that contradict each other.
 */
export function interpretBridgeMessage(raw: string): BridgeOutcome | null {
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    return null
  }
  const parsed = BridgeMessage.safeParse(json)
  if (!parsed.success) return null
  const { type, success } = parsed.data
  const byType = type === undefined ? undefined : type === 'PAY_SUCCESS'
  if (byType !== undefined && success !== undefined && byType !== success) return null
  return (byType ?? success) === true ? 'success' : 'failure'
}

/** Sends both fields, so hosts that read only one of them still understand the message. */
export function bridgeMessage(outcome: BridgeOutcome, text?: string): string {
  const message: BridgeMessage =
    outcome === 'success'
      ? { type: 'PAY_SUCCESS', success: true, ...(text === undefined ? {} : { message: text }) }
      : { type: 'PAY_FAILURE', success: false, ...(text === undefined ? {} : { error: text }) }
  return JSON.stringify(message)
}
