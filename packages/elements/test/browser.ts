// Browser-side helpers of the tests: the scripted backend (test/backend.mjs) and wtr server commands.
import { waitUntil } from '@open-wc/testing'

/** What the element may be answered; see test/backend.mjs. */
export interface Reply {
  status?: number
  body?: unknown
  text?: string
  delayMs?: number
  location?: string
  destroy?: boolean
}

/** A request the backend received. */
export interface Recorded {
  method: string
  url: string
  contentType: string | null
  accept: string | null
  body: string
  at: number
}

export interface Scenario {
  /** The backend's URL for this scenario, e.g. `/test-backend/s/s3`: the element's `action` or `verify`. */
  url: string
  /** What it has received so far. */
  requests(): Promise<Recorded[]>
  /** Resolves once it has received `count` requests. */
  received(count: number): Promise<Recorded[]>
}

/** Scripts the backend: its answers, in order; the last one repeats. */
export async function scenario(...replies: Reply[]): Promise<Scenario> {
  const response = await fetch('/test-backend/scenarios', { method: 'POST', body: JSON.stringify({ replies }) })
  const { id } = (await response.json()) as { id: string }
  const requests = async () => ((await (await fetch(`/test-backend/log/${id}`)).json()) as { requests: Recorded[] }).requests
  return {
    url: `/test-backend/s/${id}`,
    requests,
    async received(count) {
      let seen: Recorded[] = []
      await waitUntil(async () => (seen = await requests()).length >= count, `${count} request(s) expected`, { timeout: 4000 })
      return seen
    },
  }
}

/**
 * Runs a web-test-runner server command, as `@web/test-runner-commands` does (that package is not a
 * dependency of this one): over the dev server's web socket, for this browser session.
 */
export async function command<T>(name: string, payload?: unknown): Promise<T> {
  const sessionId = new URL(location.href).searchParams.get('wtr-session-id')
  const socketModule = '/__web-dev-server__web-socket.js'
  const socket = (await import(socketModule)) as {
    sendMessageWaitForResponse(message: unknown): Promise<{ executed: boolean; result: T }>
  }
  const response = await socket.sendMessageWaitForResponse({ type: 'wtr-command', sessionId, command: name, payload })
  if (!response.executed) throw new Error(`no plugin ran the command ${name}`)
  return response.result
}

/** Presses a key in the real browser (Playwright's keyboard), on whatever has focus. */
export const press = (key: string) => command<void>('send-keys', { press: key })

/** The element's shadow root, which an open Lit element always has. */
export function shadow(element: HTMLElement): ShadowRoot {
  if (!element.shadowRoot) throw new Error(`<${element.localName}> has no shadow root`)
  return element.shadowRoot
}

/** The text a user sees in a part (slotted content included), whitespace collapsed. */
export function partText(element: HTMLElement, part: string): string {
  const node = shadow(element).querySelector<HTMLElement>(`[part~="${part}"]`)
  return node ? visibleText(node).replace(/\s+/g, ' ').trim() : ''
}

function visibleText(node: Node): string {
  if (node instanceof HTMLSlotElement) {
    const assigned = node.assignedNodes({ flatten: true })
    return (assigned.length > 0 ? assigned : [...node.childNodes]).map(visibleText).join('')
  }
  if (node instanceof Element) return [...node.childNodes].map(visibleText).join('')
  return node instanceof Text ? node.data : '' // not Lit's comment markers
}
